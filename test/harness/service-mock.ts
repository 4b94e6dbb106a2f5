import nock from 'nock';

import { TEST_API_KEY, TEST_BASE_URL } from './credentials-helper';

export interface RecordedRequest {
	method: string;
	path: string;
	headers: Record<string, string | string[] | undefined>;
	body: unknown;
}

/**
 * The service, mocked with nock: every interceptor requires the credential's x-api-key and
 * records the request so tests can assert method, path, headers and body field by field.
 */
export function mockService() {
	const requests: RecordedRequest[] = [];
	const scope = nock(TEST_BASE_URL, { reqheaders: { 'x-api-key': TEST_API_KEY } });
	scope.on(
		'request',
		(
			req: { method: string; path: string; headers: RecordedRequest['headers'] },
			_interceptor: unknown,
			body: string,
		) => {
			let parsed: unknown = body;
			try {
				parsed = body ? JSON.parse(body) : undefined;
			} catch {
				parsed = body;
			}
			requests.push({ method: req.method, path: req.path, headers: req.headers, body: parsed });
		},
	);
	return { scope, requests };
}

export const success = (data?: object) => ({
	code: 0,
	message: 'Success',
	...(data ? { data } : {}),
});

export function enableMockedNetwork() {
	beforeAll(() => nock.disableNetConnect());
	afterEach(() => nock.cleanAll());
	afterAll(() => nock.enableNetConnect());
}
