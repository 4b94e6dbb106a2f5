import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialsHelper,
	IHttpRequestOptions,
	INode,
	INodeProperties,
	IRequestOptionsSimplified,
	Workflow,
} from 'n8n-workflow';

import { CandidateVerificationApi } from '../../credentials/CandidateVerificationApi.credentials';

// eslint-disable-next-line @n8n/community-nodes/no-hardcoded-secrets -- a made-up key for a fake service
export const TEST_API_KEY = 'test-api-key-3f9c1a7e5b2d';
export const TEST_BASE_URL = 'https://cv.test';

export const TEST_CREDENTIALS: ICredentialDataDecryptedObject = {
	apiKey: TEST_API_KEY,
	environment: 'staging',
	stagingBaseUrl: `${TEST_BASE_URL}/`,
	productionBaseUrl: 'https://production.cv.test',
	orgId: 'org-123',
};

const credentialType = new CandidateVerificationApi();

/**
 * The part of n8n's CredentialsHelper a node run needs: hands out the decrypted test credential
 * and applies the credential type's `authenticate` function as n8n does.
 */
export class TestCredentialsHelper implements ICredentialsHelper {
	constructor(private readonly data: ICredentialDataDecryptedObject = TEST_CREDENTIALS) {}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		if (typeName !== credentialType.name || !workflow || !node) {
			throw new Error(`TestCredentialsHelper cannot authenticate ${typeName}`);
		}
		return await credentialType.authenticate(credentials, requestOptions as IHttpRequestOptions);
	}

	async preAuthentication(): Promise<undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<undefined> {
		return undefined;
	}

	async getCredentials(): Promise<ICredentials> {
		throw new Error('not used by these tests');
	}

	async getDecrypted(): Promise<ICredentialDataDecryptedObject> {
		return { ...this.data };
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(): INodeProperties[] {
		return credentialType.properties;
	}
}
