/**
 * The outreach service's core as a library: build its layers into your own
 * Effect program, serve its HttpApi, or derive a typed client from the contract.
 *
 * @since 1.0.0
 */
export * as Api from "./api/Api.ts"
export * as ApiErrors from "./api/Errors.ts"
export * as App from "./App.ts"
export * as AppConfig from "./platform/AppConfig.ts"
export * as Credentials from "./auth/Credentials.ts"
export * as Database from "./platform/Database.ts"
export * as Gate from "./http/Gate.ts"
export * as Keys from "./keys/ApiKeys.ts"
export * as Migrations from "./platform/Migrations.ts"
export * as Observability from "./platform/Observability.ts"
export * as PgliteClient from "./platform/PgliteClient.ts"
export * as Principal from "./domain/Principal.ts"
export * as RateLimit from "./ratelimit/RateLimit.ts"
export * as Server from "./http/Server.ts"
export * as ServiceClock from "./platform/ServiceClock.ts"
export * as Workspaces from "./workspaces/Workspaces.ts"
export * as WebhookAddressGuard from "./webhooks/AddressGuard.ts"
export * as WebhookBackoff from "./webhooks/Backoff.ts"
export * as WebhookDispatcher from "./webhooks/Dispatcher.ts"
export * as WebhookEndpoints from "./webhooks/Endpoints.ts"
export * as WebhookPayload from "./webhooks/Payload.ts"
export * as WebhookSignature from "./webhooks/Signature.ts"
export { verifyWebhook } from "./webhooks/Signature.ts"
