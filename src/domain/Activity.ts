/**
 * What the activity log records (`activity/ActivityLog.ts`, `GET /v1/activity`).
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
  "team.password_reset_sent",
  "team.password_reset",
  "key.created",
  "key.revoked",
  "workflow.paused",
  "workflow.resumed",
  "workflow.stopped",
  "automation.paused",
  "automation.resumed",
  "automation.stopped"
])
export type ActivityAction = typeof ActivityAction.Type

/** What an entry is about. */
export const ActivityResource = Schema.Literals(["approval", "seat", "person", "invitation", "key", "workflow", "automation"])
export type ActivityResource = typeof ActivityResource.Type
