/**
 * What the activity log records (`activity/ActivityLog.ts`, `GET /v1/activity`).
 *
 * @since 1.0.0
 */
import { Schema } from "effect"

/** What was done. */
export const ActivityAction = Schema.Literals([
  "approval.approved",
  "approval.edited",
  "approval.rejected",
  "seat.connected",
  "seat.settings_changed",
  "seat.mode_changed",
  "seat.limits_changed",
  "seat.paused",
  "seat.resumed",
  "seat.disconnected",
  "team.invited",
  "team.removed",
  "team.role_changed",
  "key.created",
  "key.revoked"
])
export type ActivityAction = typeof ActivityAction.Type
