/**
 * An account as an `effect/cluster` entity: what the servers tell the runner
 * that owns the account. Exactly one runner owns an account at a time; the
 * Governor's actor for the account lives there, and these messages reach it
 * from whichever server a request came in on.
 *
 * None of them carries work: the work is in the `jobs` table. They only say
 * "look again", so a message lost with a dying runner costs nothing. The new
 * owner looks at the account's queue when it takes the account over.
 */
import { Schema } from "effect"
import { Entity } from "effect/cluster"
import { Rpc } from "effect/rpc"

export const AccountEntity = Entity.make("Account", [
  /** The account's write queue changed (a new write, an approval, a cancellation): look at its head. */
  Rpc.make("Wake"),
  /** The account itself changed (resumed, settings, limits): look at the writes and retry parked reads. */
  Rpc.make("Changed"),
  /** Run this read (it runs beside the writes, not behind them). */
  Rpc.make("Read", { payload: { jobId: Schema.String } })
])
