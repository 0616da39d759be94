/**
 * The receiver's kit, `outreach-service/webhooks`: what a project that only
 * receives webhooks needs (verify a request, the header names), loading the
 * signature code and nothing of the service.
 *
 * @since 1.0.0
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
} from "./Signature.ts"
