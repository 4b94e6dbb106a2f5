import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { TEST_BASE_URL } from '../harness/credentials-helper';

export const WEBHOOK_CONFIG_PATH = '/verification/api/1.0/webhook-config';

export interface RecordedRequest {
	method: 'POST' | 'PUT';
	path: string;
	body: IDataObject;
	/** The x-api-key header the request carried. */
	apiKey: unknown;
}

interface StoredConfiguration {
	endpoint: string;
	apiKey: string;
	description?: string;
}

interface Failure {
	status: number;
	body: IDataObject;
}

/**
 * The webhook-config part of the service, in memory behind nock: POST creates a configuration,
 * PUT updates an existing one, nothing lists or deletes. Every request is recorded.
 */
export class FakeWebhookConfigService {
	readonly configurations = new Map<string, StoredConfiguration>();

	readonly requests: RecordedRequest[] = [];

	private nextId = 1;

	private readonly failures: Failure[] = [];

	constructor() {
		// eslint-disable-next-line @typescript-eslint/no-this-alias -- nock's reply callbacks get the request as their own `this`
		const service = this;
		nock(TEST_BASE_URL)
			.persist()
			.post(WEBHOOK_CONFIG_PATH)
			.reply(function (uri, body) {
				return service.handle('POST', uri, body as IDataObject, this.req.headers['x-api-key']);
			})
			.put(new RegExp(`^${WEBHOOK_CONFIG_PATH}/[^/]+$`))
			.reply(function (uri, body) {
				return service.handle('PUT', uri, body as IDataObject, this.req.headers['x-api-key']);
			});
	}

	/** The next request is answered with this failure instead. */
	failNext(status: number, body: IDataObject): void {
		this.failures.push({ status, body });
	}

	/** Lets tests start from a configuration that already exists at the service. */
	seed(id: string, configuration: StoredConfiguration): void {
		this.configurations.set(id, configuration);
	}

	byMethod(method: RecordedRequest['method']): RecordedRequest[] {
		return this.requests.filter((request) => request.method === method);
	}

	private handle(
		method: RecordedRequest['method'],
		path: string,
		body: IDataObject,
		apiKey: unknown,
	): [number, IDataObject] {
		this.requests.push({ method, path, body, apiKey });
		const failure = this.failures.shift();
		if (failure) return [failure.status, failure.body];

		const configuration: StoredConfiguration = {
			endpoint: String(body.endpoint),
			apiKey: String(body.apiKey),
			description: body.description as string | undefined,
		};
		if (method === 'POST') {
			const id = `cfg-${this.nextId++}`;
			this.configurations.set(id, configuration);
			return [200, { code: 0, message: 'Success', data: { id } }];
		}
		const id = decodeURIComponent(path.slice(WEBHOOK_CONFIG_PATH.length + 1));
		if (!this.configurations.has(id)) {
			return [404, { code: -1, message: 'Webhook configuration not found' }];
		}
		this.configurations.set(id, configuration);
		return [200, { code: 0, message: 'Success' }];
	}
}

/**
 * Jest hooks for a suite that talks to a fresh fake service per test, with the real network off.
 * Returns an accessor for the current test's service.
 */
export function useFakeService(): () => FakeWebhookConfigService {
	let service: FakeWebhookConfigService;
	beforeAll(() => nock.disableNetConnect());
	afterAll(() => nock.enableNetConnect());
	beforeEach(() => {
		service = new FakeWebhookConfigService();
	});
	afterEach(() => {
		// A delayed answer whose request the node gave up on keeps its timer: clear it with the test.
		nock.abortPendingRequests();
		nock.cleanAll();
		jest.restoreAllMocks();
	});
	return () => service;
}
