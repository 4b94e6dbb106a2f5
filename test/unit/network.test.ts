// eslint-disable-next-line @n8n/community-nodes/no-restricted-imports -- test code run by jest, never published
import { createServer, type Server, type Socket } from 'node:net';
import nock from 'nock';
import type { INodeParameters } from 'n8n-workflow';

import { noClearAnswer } from '../../nodes/CandidateVerification/engine/messages';
import { PROFILE_LOST_ANSWER_ADVICE } from '../harness/advice';
import {
	TEST_API_KEY,
	TEST_CREDENTIALS,
	TestCredentialsHelper,
} from '../harness/credentials-helper';
import { DeduplicationStore } from '../harness/deduplication-store';
import { outputJson, runActionNode } from '../harness/run-node';
import { enableMockedNetwork, mockService, success } from '../harness/service-mock';

const createProfile: INodeParameters = {
	resource: 'profile',
	operation: 'create',
	formId: 'form-1',
	name: 'Asha',
	gender: 'Female',
};

/** The description of a Profile → Create row whose answer was lost, after the error's own first line. */
const lostAnswerDescription = (firstLine: string) =>
	[firstLine, PROFILE_LOST_ANSWER_ADVICE, noClearAnswer([0])].join('\n');

/** A local server that accepts connections and then does what `onConnection` says. */
async function localServer(onConnection: (socket: Socket) => void) {
	const sockets = new Set<Socket>();
	const server: Server = createServer((socket) => {
		sockets.add(socket);
		socket.on('error', () => {});
		onConnection(socket);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	return {
		credentials: { ...TEST_CREDENTIALS, stagingBaseUrl: `http://127.0.0.1:${port}` },
		close: async () => {
			for (const socket of sockets) socket.destroy();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}

describe('Bounded waits', () => {
	enableMockedNetwork();
	beforeEach(() => nock.enableNetConnect('127.0.0.1'));

	it('a silent service: the run ends at the timeout, with the operation, the service and what to do', async () => {
		const silent = await localServer(() => {});
		try {
			const started = Date.now();
			const result = await runActionNode({
				parameters: { ...createProfile, requestOptions: { timeout: 300 } },
				credentials: silent.credentials,
			});
			const elapsed = Date.now() - started;

			expect(result.error?.message).toBe(
				'Add a candidate to a form failed: the Candidate Verification Service did not answer within 300 ms',
			);
			expect(result.error?.description).toContain('Raise Request Options → Timeout');
			// A timed-out create may have been accepted: nothing advises sending it again blindly.
			expect(result.error?.description).toContain('the service may have created it');
			expect(result.error?.description).not.toContain('Retry On Fail');
			// Bounded by the timeout, not n8n's 5 minutes (generous for a busy machine).
			expect(elapsed).toBeLessThan(15_000);
		} finally {
			await silent.close();
		}
	});

	it('a connection reset names the operation and the service', async () => {
		const resetting = await localServer((socket) =>
			socket.once('data', () => socket.resetAndDestroy()),
		);
		try {
			const result = await runActionNode({
				parameters: createProfile,
				credentials: resetting.credentials,
			});

			expect(result.error?.message).toBe(
				'Add a candidate to a form failed: the Candidate Verification Service closed the connection before answering',
			);
			// Creating a candidate is not retried after a reset: the service may have created it.
			expect(result.error?.description).toBe(
				lostAnswerDescription(
					'The service or a proxy in between dropped the connection. (ECONNRESET)',
				),
			);
		} finally {
			await resetting.close();
		}
	});

	it('every request carries a 60 s timeout unless Request Options → Timeout says otherwise', async () => {
		const authenticate = jest.spyOn(TestCredentialsHelper.prototype, 'authenticate');
		try {
			const { scope } = mockService();
			scope
				.post(/diy-candidate/)
				.times(2)
				.reply(200, success({ transactionId: 'TXN-1' }));

			await runActionNode({ parameters: createProfile });
			await runActionNode({ parameters: { ...createProfile, requestOptions: { timeout: 5000 } } });

			const timeouts = authenticate.mock.calls.map(
				([, , options]) => (options as { timeout?: number }).timeout,
			);
			expect(timeouts).toEqual([60_000, 5000]);
		} finally {
			authenticate.mockRestore();
		}
	});

	it('a redirect is not followed: the key stays with the service and the error says where it pointed', async () => {
		const { scope, requests } = mockService();
		scope.post('/verification/api/1.0/ekyc-forms/form-1/diy-candidate').reply(307, '', {
			Location: 'https://elsewhere.example/ekyc-forms/form-1/diy-candidate?token=secret-token',
		});
		const elsewhere = nock('https://elsewhere.example')
			.post(/.*/)
			.reply(200, success({ transactionId: 'TXN-9' }));

		const result = await runActionNode({ parameters: createProfile });

		expect(result.error?.message).toBe(
			'Add a candidate to a form failed: the Candidate Verification Service answered HTTP 307, a redirect to https://elsewhere.example/ekyc-forms/form-1/diy-candidate',
		);
		// A redirect does not say whether the service acted: the row is held in doubt, not sent again.
		expect(result.error?.description).toBe(
			lostAnswerDescription(
				'The node does not follow redirects with your API key. Check the base URL in the credential (https:// rather than http://, the host the provider gave you) and run again.',
			),
		);
		expect(JSON.stringify(result.error)).not.toContain('secret-token');
		expect(requests.map(({ method, path }) => `${method} ${path}`)).toEqual([
			'POST /verification/api/1.0/ekyc-forms/form-1/diy-candidate',
		]);
		expect(elsewhere.isDone()).toBe(false);
	});
});

describe('Which answers say the service did not act on a create (the node’s choice, docs/troubleshooting.md)', () => {
	enableMockedNetwork();

	const PATH = '/verification/api/1.0/ekyc-forms/form-1/diy-candidate';
	const quickCreate = { ...createProfile, requestOptions: { retryWait: 1 } };

	it.each([
		[401, '<html><head><title>401 Authorization Required</title></head><body>nginx</body></html>'],
		[403, '<html><head><title>403 Forbidden</title></head><body>nginx</body></html>'],
	])(
		'HTTP %i with a web page is a refusal: not retried, the row not in doubt, and the next run sends it',
		async (status, page) => {
			const store = new DeduplicationStore();
			const { scope, requests } = mockService();
			scope.post(PATH).reply(status, page, { 'content-type': 'text/html' });

			const refused = await runActionNode({ parameters: quickCreate, deduplicationStore: store });

			expect(requests).toHaveLength(1);
			expect(refused.error?.message).toBe(
				`Add a candidate to a form failed: the Candidate Verification Service answered HTTP ${status} with a body that is not JSON`,
			);
			expect(refused.error?.description).toBe(
				[
					`Body starts with: ${status} ${status === 401 ? 'Authorization Required' : 'Forbidden'} nginx`,
					'The service or a gateway in front of it refused the request before acting on it: check the API key and the Environment of the credential, then run again.',
				].join('\n'),
			);

			scope.post(PATH).reply(200, success({ transactionId: 'TXN-1' }));
			const again = await runActionNode({ parameters: quickCreate, deduplicationStore: store });

			expect(requests).toHaveLength(2);
			expect(outputJson(again)).toEqual([
				{ transactionId: 'TXN-1', formId: 'form-1', name: 'Asha' },
			]);
			expect(JSON.stringify(refused.error)).not.toContain(TEST_API_KEY);
		},
	);

	it('HTTP 503 in the service’s envelope is a refusal: tried again, then accepted', async () => {
		const { scope, requests } = mockService();
		scope.post(PATH).reply(503, { code: -1, message: 'Try again later' });
		scope.post(PATH).reply(200, success({ transactionId: 'TXN-1' }));

		const result = await runActionNode({ parameters: quickCreate });

		expect(requests).toHaveLength(2);
		expect(outputJson(result)).toEqual([
			{ transactionId: 'TXN-1', formId: 'form-1', name: 'Asha' },
		]);
	});

	it('a bare HTTP 503 (a proxy may answer it after forwarding) on a create is a lost answer: not retried, the row in doubt', async () => {
		const store = new DeduplicationStore();
		const { scope, requests } = mockService();
		scope.post(PATH).times(3).reply(503, '<html><h1>503 Service Unavailable</h1></html>', {
			'content-type': 'text/html',
		});

		const result = await runActionNode({ parameters: quickCreate, deduplicationStore: store });

		expect(requests).toHaveLength(1);
		expect(result.error?.message).toBe(
			'Add a candidate to a form failed: the Candidate Verification Service answered HTTP 503 with a body that is not JSON',
		);
		expect(result.error?.description).toBe(
			lostAnswerDescription('Body starts with: 503 Service Unavailable'),
		);

		const later = await runActionNode({
			parameters: { ...quickCreate, duplicateProtectionOptions: { inDoubtWaitSeconds: 0 } },
			deduplicationStore: store,
			continueOnFail: true,
		});
		expect(requests).toHaveLength(1);
		expect(outputJson(later)[0]).toMatchObject({ inDoubt: true });
		nock.cleanAll();
	});
});
