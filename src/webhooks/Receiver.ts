/**
 * The receiver's kit, `outreach-service/webhooks`: what a project that only
 * receives webhooks needs (verify a request, the header names): the signature
 * scheme over node:crypto, one file, nothing of the service or of Effect.
 */
export {
  defaultToleranceSeconds,
  deliveryHeader,
  eventHeader,
  nextSignatureHeader,
  type ReceivedHeaders,
  sign,
  signatureHeader,
  timestampHeader,
  userAgent,
  verifyWebhook,
  type VerifyFailureReason,
  type VerifyOptions,
  type VerifyResult
} from "./Verify.ts"
