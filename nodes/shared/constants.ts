/**
 * The wire: the credential, the headers, the service's paths and the request timeouts. The checks
 * are in checks.ts, the service's other value lists in enums.ts.
 */

// ---- Credential and headers ---------------------------------------------------------------------

export const CREDENTIAL_TYPE = 'candidateVerificationApi';
/** The header carrying the API key on every request (and the webhook secret on notifications). */
export const API_KEY_HEADER = 'x-api-key';

// ---- Paths ---------------------------------------------------------------------------------------

export const VERIFICATION_API = '/verification/api/1.0';
/** From the provider's public documentation: uploads live under a different prefix. */
export const UTILITY_API = '/utility/api/1.0';

export const FORMS_PATH = `${VERIFICATION_API}/ekyc-forms`;
export const CANDIDATE_PATH = `${FORMS_PATH}/:formId/diy-candidate`;
export const SUBMISSION_PATH = `${VERIFICATION_API}/bgv/diy`;
export const WEBHOOK_CONFIG_PATH = `${VERIFICATION_API}/webhook-config`;
export const PURPOSES_PATH = `${VERIFICATION_API}/purposes`;
export const DOWNLOAD_FILE_PATH = `${VERIFICATION_API}/download-manager/download-file`;
export const SIGNED_URL_PATH = `${VERIFICATION_API}/download-manager/url`;
export const UPLOAD_PATH = `${UTILITY_API}/files`;
export const TRANSACTION_STATUS_PATH = `${VERIFICATION_API}/transactions/info`;
export const CHECK_STATUS_PATH = `${VERIFICATION_API}/transactions/:verificationName/info`;
/** From the provider's public documentation: answers and documents for a check's insufficiency. */
export const INSUFFICIENCY_PATH = `${VERIFICATION_API}/bgv/insufficiency`;

// Instant KYC, from the provider's public documentation: instant checks have their own endpoints (not
// bgv/diy), answer synchronously and are billed per call. The bank account's path is the one public
// client code calls (no page of the documentation shows it); the path marked "inferred" follows the
// pattern of the others: nothing public shows it.

const VERIFICATIONS = `${VERIFICATION_API}/verifications`;
export const KYC_PAN_PATH = `${VERIFICATIONS}/pan`;
/** The path public client code calls (public material, not the contract nor the provider's pages). */
export const KYC_BANK_ACCOUNT_PATH = `${VERIFICATIONS}/bank-account`;
export const KYC_UPI_PATH = `${VERIFICATIONS}/upi`;
export const KYC_GST_PATH = `${VERIFICATIONS}/gst`;
export const KYC_EMPLOYMENT_HISTORY_PATH = `${VERIFICATIONS}/employment-check`;
/** Inferred from the pattern of the other instant checks' paths. */
export const KYC_DIN_PATH = `${VERIFICATIONS}/din`;
/** Aadhaar through DigiLocker, step 1: the consent link for the candidate. */
export const KYC_AADHAAR_START_PATH = `${VERIFICATIONS}/pre-verify/aadhaar`;
/** Aadhaar through DigiLocker, step 2: the result once the candidate consented. */
export const KYC_AADHAAR_RESULT_PATH = `${VERIFICATIONS}/self/aadhaar`;

// ---- Timeouts and lifetimes ----------------------------------------------------------------------

/** Default per-request timeout (n8n's is 5 minutes); Request Options → Timeout overrides it. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** How long a signed URL of File → Get Signed URL stays valid. */
export const SIGNED_URL_LIFETIME_MINUTES = 180;
