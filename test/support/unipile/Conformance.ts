/**
 * Which of the SDK's own TypeBox validators judges each response of the provider double: the one
 * `unipile-node-sdk` passes to its request sender for that call (resources/*.resource.js). Calls
 * the SDK does not cover (search, received invitations, reactions of a user) have none: the
 * driver decodes those with its own schemas.
 */
import type { TypeCheck } from "@sinclair/typebox/compiler"
import type { TSchema } from "@sinclair/typebox"
// The SDK's package exports only its root, which does not re-export these; they are the very
// validators its resources pass to the request sender, imported from the files that define them.
import { AccountApiResponseValidator } from "../../../node_modules/unipile-node-sdk/dist/esm/accounts/account.types.js"
import { AccountConnectApiResponseValidator } from "../../../node_modules/unipile-node-sdk/dist/esm/accounts/accounts-create.types.js"
import { AccountDeletedApiResponseValidator } from "../../../node_modules/unipile-node-sdk/dist/esm/accounts/accounts-delete.types.js"
import { AccountListResponseValidator } from "../../../node_modules/unipile-node-sdk/dist/esm/accounts/accounts-list.schema.js"
import { AccountReconnectApiResponseValidator, AccountSolveCheckpointApiResponseValidator } from "../../../node_modules/unipile-node-sdk/dist/esm/accounts/accounts-reconnect.types.js"
import { HostedAuthLinkResponseValidator } from "../../../node_modules/unipile-node-sdk/dist/esm/hosted/hosted-auth-link.types.js"
import { LinkedinCompanyProfileApiResponseValidator } from "../../../node_modules/unipile-node-sdk/dist/esm/linkedin/company.js"
import { ChatAttendeeByChatListApiResponseValidator } from "../../../node_modules/unipile-node-sdk/dist/esm/messaging/chat-attendees/chat-attendees-list.types.js"
import { ChatStartedApiResponseValidator } from "../../../node_modules/unipile-node-sdk/dist/esm/messaging/chats/chat-start.types.js"
import { ChatResponseValidator } from "../../../node_modules/unipile-node-sdk/dist/esm/messaging/chats/chat.types.js"
import { ChatListApiResponseValidator } from "../../../node_modules/unipile-node-sdk/dist/esm/messaging/chats/chats-list.types.js"
import { MessageListApiResponseValidator } from "../../../node_modules/unipile-node-sdk/dist/esm/messaging/messages/message-list.types.js"
import { MessageSentResponseValidator } from "../../../node_modules/unipile-node-sdk/dist/esm/messaging/messages/message-send.types.js"
import { PostCommentListApiResponseValidator } from "../../../node_modules/unipile-node-sdk/dist/esm/posts/comment-list.types.js"
import { CommentPostResponseValidator } from "../../../node_modules/unipile-node-sdk/dist/esm/posts/comment-send.types.js"
import { CreatePostResponseValidator } from "../../../node_modules/unipile-node-sdk/dist/esm/posts/post-create.types.js"
import { AccountOwnerProfileApiResponseValidator } from "../../../node_modules/unipile-node-sdk/dist/esm/users/account-owner-profile.js"
import { UserPostApiResponseValidator } from "../../../node_modules/unipile-node-sdk/dist/esm/users/post.types.js"
import { AddPostReactionResponseValidator } from "../../../node_modules/unipile-node-sdk/dist/esm/users/reaction-add.types.js"
import { CancelUserInvitationApiResponseValidator } from "../../../node_modules/unipile-node-sdk/dist/esm/users/user-invitation-cancel.types.js"
import { UserInvitationSentListApiResponseValidator } from "../../../node_modules/unipile-node-sdk/dist/esm/users/user-invitation-sent-list.types.js"
import { UserInviteApiResponseValidator } from "../../../node_modules/unipile-node-sdk/dist/esm/users/user-invite.types.js"
import { UserPostListApiResponseValidator } from "../../../node_modules/unipile-node-sdk/dist/esm/users/user-post-list.types.js"
import { UserProfileApiResponseValidator } from "../../../node_modules/unipile-node-sdk/dist/esm/users/user-profile.types.js"
import { UserRelationsListApiResponseValidator } from "../../../node_modules/unipile-node-sdk/dist/esm/users/user-relations-list.types.js"
import { WebhookCreateResponseValidator } from "../../../node_modules/unipile-node-sdk/dist/esm/webhooks/webhooks-create.types.js"

/** A compiled validator of the SDK. */
export type Validator = TypeCheck<TSchema>

/** The validator of each SDK call the double answers, by the double's route name. */
export const validators = {
  "accounts.list": AccountListResponseValidator,
  "accounts.get": AccountApiResponseValidator,
  "accounts.connect": AccountConnectApiResponseValidator,
  "accounts.reconnect": AccountReconnectApiResponseValidator,
  "accounts.checkpoint": AccountSolveCheckpointApiResponseValidator,
  "accounts.delete": AccountDeletedApiResponseValidator,
  "hosted.link": HostedAuthLinkResponseValidator,
  "users.me": AccountOwnerProfileApiResponseValidator,
  "users.profile": UserProfileApiResponseValidator,
  "users.relations": UserRelationsListApiResponseValidator,
  "users.invite": UserInviteApiResponseValidator,
  "users.invite.sent": UserInvitationSentListApiResponseValidator,
  "users.invite.cancel": CancelUserInvitationApiResponseValidator,
  "users.posts": UserPostListApiResponseValidator,
  "posts.get": UserPostApiResponseValidator,
  "posts.create": CreatePostResponseValidator,
  "posts.comment": CommentPostResponseValidator,
  "posts.comments": PostCommentListApiResponseValidator,
  "posts.reaction": AddPostReactionResponseValidator,
  "linkedin.company": LinkedinCompanyProfileApiResponseValidator,
  "chats.list": ChatListApiResponseValidator,
  "chats.get": ChatResponseValidator,
  "chats.messages": MessageListApiResponseValidator,
  "chats.attendees": ChatAttendeeByChatListApiResponseValidator,
  "chats.send": MessageSentResponseValidator,
  "chats.start": ChatStartedApiResponseValidator,
  "messages.list": MessageListApiResponseValidator,
  "webhooks.create": WebhookCreateResponseValidator
} satisfies Record<string, Validator>

/** A route of the double that the SDK calls. */
export type SdkRoute = keyof typeof validators

/** A response that its SDK validator refused: the route and the validator's first errors. */
export interface Violation {
  readonly route: SdkRoute
  readonly errors: ReadonlyArray<string>
}

/** The validator's verdict on `body`, as a violation or nothing. */
export const judge = (route: SdkRoute, body: unknown): Violation | undefined => {
  const validator: Validator = validators[route]
  if (validator.Check(body)) return undefined
  const errors = Array.from(validator.Errors(body)).slice(0, 5).map((error) => `${error.path}: ${error.message}`)
  return { route, errors }
}
