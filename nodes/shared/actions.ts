/**
 * One name per operation: the action n8n shows in the node creator and the AI agent's tool list,
 * and the operation every error of that operation names, so the two never disagree.
 */
export const ACTIONS = {
	fileDownload: 'Download a private file',
	fileGetDownloadToken: 'Get a download token for a private file',
	fileGetSignedUrl: 'Get a signed URL for a private file',
	fileUpload: 'Upload a document',
	formCreate: 'Create a form',
	profileCreate: 'Add a candidate to a form',
	purposeGetAll: 'Get many purposes',
	transactionGetCheckStatus: 'Get the status of one check',
	transactionGetStatus: 'Get the status of a transaction',
	verificationSubmit: 'Submit a check for a candidate',
	webhookConfigCreate: 'Create a webhook configuration',
	webhookConfigUpdate: 'Update a webhook configuration',
	// Issue 34: the insufficiency loop.
	verificationResolveInsufficiency: 'Resolve an insufficiency of a check',
	// ---- Instant KYC (issue 34): each call is billed by the provider ----
	instantKycAadhaarGetResult: 'Get the result of an Aadhaar check through DigiLocker',
	instantKycAadhaarStart: 'Start an Aadhaar check through DigiLocker',
	instantKycGetEmploymentHistory: 'Get employment history by UAN',
	instantKycVerifyBankAccount: 'Verify a bank account',
	instantKycVerifyDin: 'Verify a director identification number (DIN)',
	instantKycVerifyGst: 'Verify a GSTIN',
	instantKycVerifyPan: 'Verify a PAN',
	instantKycVerifyUpi: 'Verify a UPI ID',
} as const;
