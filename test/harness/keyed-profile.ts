import type { INodeParameters } from 'n8n-workflow';

export const FORM_ID = 'form-1';
export const CANDIDATE_PATH = `/verification/api/1.0/ekyc-forms/${FORM_ID}/diy-candidate`;

/**
 * Profile → Create with the row's `key` as its Duplicate Key, no wait for an answer elsewhere and no
 * retries: the duplicate-protection tests that choose each row's identity.
 */
export const keyedCreateProfile: INodeParameters = {
	resource: 'profile',
	operation: 'create',
	formId: FORM_ID,
	name: '={{ $json.name }}',
	gender: 'Female',
	duplicateKey: '={{ $json.key }}',
	duplicateProtectionOptions: { inDoubtWaitSeconds: 0 },
	requestOptions: { transientRetries: 0 },
};
