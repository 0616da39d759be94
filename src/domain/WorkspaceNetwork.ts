/**
 * A workspace's network, chosen when it is created: `sandbox` (the simulated network) or `live`
 * (real seats through the provider). Its accounts use that network; one server holds both kinds.
 */
import { Schema } from "effect"

export const WorkspaceNetwork = Schema.Literals(["sandbox", "live"]).annotate({
  description: "The workspace's network: `sandbox` (simulated) or `live` (real seats)"
})
export type WorkspaceNetwork = typeof WorkspaceNetwork.Type

/** The network of a new workspace when none is chosen: the one `OUTREACH_NETWORK` names. */
export const defaultFor = (driver: "sandbox" | "unipile"): WorkspaceNetwork => driver === "unipile" ? "live" : "sandbox"
