import nock from 'nock';
import type { IDataObject, INodeParameters, INodeType } from 'n8n-workflow';
/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code run by jest, never published: the upgrade test loads 0.3.1's node from git */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { TEST_API_KEY, TEST_BASE_URL, TEST_CREDENTIALS } from '../harness/credentials-helper';
import { DeduplicationStore } from '../harness/deduplication-store';
import { addNodeType, PACKAGE } from '../harness/environment';
import { outputJson, runActionNode, type RunOptions } from '../harness/run-node';
import { enableMockedNetwork, mockService, success } from '../harness/service-mock';

/**
 * A row's identity (duplicate protection): what the service sees as the same row. The account
 * that sent it (the environment and the n8n credential, not its host or key); for Verification →
 * Submit the transaction, the check by its form-list name and the data without document URLs.
 * Runs that share one DeduplicationStore (and static data) are executions of one workflow.
 */
const V = '/verification/api/1.0';
const FORM_ID = 'form-1';
const CANDIDATE_PATH = `${V}/ekyc-forms/${FORM_ID}/diy-candidate`;
const SUBMIT_PATH = `${V}/bgv/diy`;
/** The harness's Candidate Verification node. */
const NODE_ID = '00000000-0000-4000-8000-000000000002';
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const createProfile: INodeParameters = {
	resource: 'profile',
	operation: 'create',
	formId: FORM_ID,
	name: '={{ $json.name }}',
	gender: 'Female',
};
const candidates = (count: number) =>
	Array.from({ length: count }, (_, index) => ({ name: `Candidate ${index}` }));
const numberOf = (body: unknown) => String((body as { name: string }).name).split(' ')[1];

/** The service at `host` accepts `times` candidates, each with a transaction ID of its name. */
function acceptingAt(host: string, times: number) {
	const requests: unknown[] = [];
	nock(host)
		.post(CANDIDATE_PATH)
		.times(times)
		.reply(200, (_uri, body) => {
			requests.push(body);
			return success({ transactionId: `TXN-${numberOf(body)}` });
		});
	return requests;
}

/** An output item of a row accepted before: the operation's output, alreadySent and when. */
const sentBefore = (json: IDataObject) => ({
	...json,
	alreadySent: true,
	sentAt: expect.stringMatching(ISO_TIME),
});
const alreadySent = (index: number) =>
	sentBefore({ transactionId: `TXN-${index}`, formId: FORM_ID, name: `Candidate ${index}` });

/**
 * Two executions of one workflow on two candidates, the second with `second`'s changes; the
 * service accepts `secondAccepts` candidates in the second.
 */
async function twoRuns(second: Partial<RunOptions>, firstHost = TEST_BASE_URL, secondAccepts = 0) {
	const store = new DeduplicationStore();
	const staticData: IDataObject = {};
	const run = (extra: Partial<RunOptions>) =>
		runActionNode({
			items: candidates(2),
			parameters: createProfile,
			deduplicationStore: store,
			staticData,
			...extra,
		});
	const firstRequests = acceptingAt(firstHost, 2);
	const credentials = { ...TEST_CREDENTIALS, stagingBaseUrl: firstHost };
	expect((await run({ credentials })).error).toBeUndefined();
	expect(firstRequests).toHaveLength(2);
	const secondRequests = secondAccepts > 0 ? acceptingAt(TEST_BASE_URL, secondAccepts) : [];
	return { again: await run(second), secondRequests };
}

enableMockedNetwork();

describe('A row’s identity is the account that sent it: the environment and the n8n credential', () => {
	it('the credential’s base URL changed (the provider moved host): 0 sent, the IDs kept', async () => {
		// Nothing answers at the new host: a request there would fail the run.
		const { again } = await twoRuns({
			credentials: { ...TEST_CREDENTIALS, stagingBaseUrl: 'https://moved.cv.test' },
		});

		expect(again.error).toBeUndefined();
		expect(outputJson(again)).toEqual([alreadySent(0), alreadySent(1)]);
	});

	it('http → https in the credential’s base URL: 0 sent', async () => {
		const { again } = await twoRuns({ credentials: TEST_CREDENTIALS }, 'http://cv.test');

		expect(again.error).toBeUndefined();
		expect(outputJson(again)).toEqual([alreadySent(0), alreadySent(1)]);
	});

	it('the credential’s API key changed: 0 sent', async () => {
		const { again } = await twoRuns({
			credentials: { ...TEST_CREDENTIALS, apiKey: `${TEST_API_KEY}-rotated` },
		});

		expect(again.error).toBeUndefined();
		expect(outputJson(again)).toEqual([alreadySent(0), alreadySent(1)]);
	});

	it('another credential (another account at the service): the rows are sent', async () => {
		const { again, secondRequests } = await twoRuns({ credentialId: 'cred-2' }, TEST_BASE_URL, 2);

		expect(secondRequests).toHaveLength(2);
		expect(outputJson(again)).toEqual([
			{ transactionId: 'TXN-0', formId: FORM_ID, name: 'Candidate 0' },
			{ transactionId: 'TXN-1', formId: FORM_ID, name: 'Candidate 1' },
		]);
	});
});

describe('Verification → Submit’s identity: the transaction, the check by its form-list name, the data without document URLs', () => {
	const address = {
		line1: '7 Park Street',
		vtc: 'Park Street',
		district: 'Kolkata',
		state: 'West Bengal',
		pincode: '700016',
		country: 'India',
	};
	const submit = (parameters: IDataObject): INodeParameters => ({
		resource: 'verification',
		operation: 'submit',
		transactionId: 'TXN-9',
		...parameters,
	});

	/** Runs each submission as one execution of one workflow; returns what the service received. */
	async function submissions(runs: Array<{ parameters: INodeParameters; typeVersion: number }>) {
		const store = new DeduplicationStore();
		const { scope, requests } = mockService();
		scope.post(SUBMIT_PATH).times(runs.length).reply(200, success());
		const outputs: IDataObject[][] = [];
		for (const { parameters, typeVersion } of runs) {
			const result = await runActionNode({ parameters, typeVersion, deduplicationStore: store });
			expect(result.error).toBeUndefined();
			outputs.push(outputJson(result));
		}
		return { requests, outputs };
	}

	it('a re-run with a new upload URL (File → Upload gives a new one each time): 0 sent, alreadySent', async () => {
		const employment = (documentUrl: string) =>
			submit({
				verificationName: 'bgv-employment',
				employmentDocumentType: 'salaryslip',
				nameAsPerEmployerRecords: 'Asha Rao',
				employerName: 'Acme',
				joiningDate: '2020-01-01',
				lastWorkingDate: '2023-01-01',
				documentUrl,
			});
		const { requests, outputs } = await submissions([
			{ parameters: employment('https://files.example/upload-1.pdf'), typeVersion: 2 },
			{ parameters: employment('https://files.example/upload-2.pdf'), typeVersion: 2 },
		]);

		expect(requests).toHaveLength(1);
		expect(outputs[1]).toEqual([
			sentBefore({ transactionId: 'TXN-9', verificationName: 'bgv-employment', submitted: true }),
		]);
	});

	it('bgv-local-address-digital, then bgv-local-extended-address (two names of one check): 0 sent', async () => {
		const { requests, outputs } = await submissions([
			{
				parameters: submit({ verificationName: 'bgv-local-address-digital', ...address }),
				typeVersion: 2,
			},
			{
				parameters: submit({ verificationName: 'bgv-local-extended-address', ...address }),
				typeVersion: 2,
			},
		]);

		expect(requests.map((request) => (request.body as IDataObject).verificationName)).toEqual([
			'bgv-local-address-digital',
		]);
		expect(outputs[1]).toEqual([expect.objectContaining({ alreadySent: true })]);
	});

	it('police: version 1’s Police Verification sends the certificate (one check with version 2’s certificate, whatever its upload URL); the police verification at an address is another check', async () => {
		const { requests, outputs } = await submissions([
			{
				parameters: submit({
					verificationName: 'bgv-police-verification',
					fileUrl: 'https://files.example/pcc-1.pdf',
				}),
				typeVersion: 1,
			},
			{
				parameters: submit({
					verificationName: 'bgv-police-clearance-certificate',
					fileUrl: 'https://files.example/pcc-2.pdf',
				}),
				typeVersion: 2,
			},
			{
				parameters: submit({
					verificationName: 'bgv-police-verification',
					permanentAddress: { address },
				}),
				typeVersion: 2,
			},
		]);

		expect(requests.map((request) => (request.body as IDataObject).verificationName)).toEqual([
			'bgv-police-clearance-certificate',
			'bgv-police-verification',
		]);
		expect(outputs[1]).toEqual([expect.objectContaining({ alreadySent: true })]);
		expect(outputs[2]).toEqual([
			{ transactionId: 'TXN-9', verificationName: 'bgv-police-verification', submitted: true },
		]);
	});
});

describe('Verification → Resolve Insufficiency’s identity: the request as sent, document URLs included', () => {
	it('a new upload (a question raised again) is sent; the same upload again (a Retry, a re-run) is alreadySent', async () => {
		const store = new DeduplicationStore();
		const { scope, requests } = mockService();
		scope.post(`${V}/bgv/insufficiency`).times(3).reply(200, success());
		const resolve = (url: string): INodeParameters => ({
			resource: 'verification',
			operation: 'resolveInsufficiency',
			transactionId: 'TXN-9',
			verificationId: 'check-1',
			documents: {
				document: [{ documentType: 'Other', fileName: 'degree.pdf', label: 'Degree', url }],
			},
		});
		await runActionNode({
			parameters: resolve('https://files.example/1.pdf'),
			deduplicationStore: store,
		});
		const newUpload = await runActionNode({
			parameters: resolve('https://files.example/2.pdf'),
			deduplicationStore: store,
		});
		const again = await runActionNode({
			parameters: resolve('https://files.example/2.pdf'),
			deduplicationStore: store,
		});

		expect(requests).toHaveLength(2);
		expect(outputJson(newUpload)).toEqual([
			{ transactionId: 'TXN-9', verificationId: 'check-1', resolved: true },
		]);
		expect(outputJson(again)).toEqual([
			sentBefore({ transactionId: 'TXN-9', verificationId: 'check-1', resolved: true }),
		]);
	});
});

describe('Upgrades keep working: rows recorded by 0.3.1 (a297338)', () => {
	const OLD_NODE_TYPE = `${PACKAGE}.candidateVerification031`;
	let oldTree: string;

	beforeAll(() => {
		// 0.3.1's node, from the repository's history, in a folder of test/ the package build never reads.
		oldTree = mkdtempSync(join(__dirname, '..', '.upgrade-0.3.1-'));
		const archive = execFileSync('git', ['archive', 'a297338', 'nodes', 'credentials'], {
			cwd: join(__dirname, '..', '..'),
			maxBuffer: 64 * 1024 * 1024,
		});
		execFileSync('tar', ['-x', '-C', oldTree], { input: archive });
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const { CandidateVerification } = require(
			join(oldTree, 'nodes/CandidateVerification/CandidateVerification.node'),
		) as { CandidateVerification: new () => INodeType };
		addNodeType(OLD_NODE_TYPE, new CandidateVerification());
	});

	afterAll(() => rmSync(oldTree, { recursive: true, force: true }));

	it('rows Profile → Create sent with 0.3.1 are found by this version: 0 sent, the 0.3.1 transaction IDs', async () => {
		const store = new DeduplicationStore();
		const staticData: IDataObject = {};
		const oldRequests = acceptingAt(TEST_BASE_URL, 3);
		const old = await runActionNode({
			items: candidates(3),
			parameters: createProfile,
			deduplicationStore: store,
			staticData,
			nodeType: OLD_NODE_TYPE,
		});
		expect(old.error).toBeUndefined();
		expect(oldRequests).toHaveLength(3);

		// Same workflow, same node (ID), same store and static data, after the upgrade.
		const upgraded = await runActionNode({
			items: candidates(3),
			parameters: createProfile,
			deduplicationStore: store,
			staticData,
		});

		expect(upgraded.error).toBeUndefined();
		expect(outputJson(upgraded)).toEqual([alreadySent(0), alreadySent(1), alreadySent(2)]);
	});

	it('a version 1 node’s 0.3.x lookups stay in its record, never removed (n8n scans the whole record for each value it removes): four values a row and the mark, in 3 calls on the record as on version 2, whose removal carries only the tripwire’s values', async () => {
		const store = new DeduplicationStore();
		const removed: string[][] = [];
		store.failRemoveWhen = (scope, values) => {
			if (scope === 'node') removed.push(values);
			return false;
		};
		acceptingAt(TEST_BASE_URL, 200);
		const result = await runActionNode({
			items: candidates(200),
			parameters: createProfile,
			deduplicationStore: store,
		});

		expect(result.error).toBeUndefined();
		// Per row: its SENT and ACCEPTED, the 0.3.x SENT the lookup did not find and l:.
		expect(store.storedValues()).toHaveLength(4 * 200 + 1);
		expect(store.callsByScope).toEqual({ node: 3, workflow: 6 });
		expect(removed.map((values) => values.map((value) => value.slice(0, 2)))).toEqual([['w:']]);
	});

	it('a version 1 node’s phases: it looks rows up under their 0.3.x identity until n8n has trimmed the first mark; History Size counts four values a row until it has trimmed the second, then two', async () => {
		const store = new DeduplicationStore();
		const staticData: IDataObject = {};
		const phase = () =>
			((staticData.global as IDataObject).candidateVerificationFormerRows as IDataObject)[NODE_ID];
		const run = async (from: number, count: number) => {
			acceptingAt(TEST_BASE_URL, count);
			store.recorded.length = 0;
			const result = await runActionNode({
				items: Array.from({ length: count }, (_, index) => ({ name: `Candidate ${from + index}` })),
				parameters: {
					...createProfile,
					duplicateProtectionOptions: { historySize: 1 },
					requestOptions: { maxConcurrentRequests: 2 },
				},
				deduplicationStore: store,
				staticData,
			});
			expect(result.error).toBeUndefined();
			// The values of its first claim, by kind.
			return store.recorded[0].map((value) => value.slice(0, 2));
		};
		const claimOf = (rows: number, lookups: boolean, mark: boolean) => [
			...(lookups ? Array<string[]>(rows).fill(['s:', 'l:']).flat() : []),
			...(mark ? ['m:'] : []),
			...Array<string>(rows).fill('s:'),
			'w:',
		];
		// History Size 1 and 3 rows claimed ahead (2 requests and a reserve of 1): 4 rows.
		const rowsKept = (valuesPerRow: number) => 4 * valuesPerRow;

		// The first run records the first mark, older than every row after it: the mark is seen.
		expect(await run(0, 2)).toEqual(claimOf(2, true, true));
		expect(phase()).toEqual({ phasesEnded: 0, markSeen: true });
		// 20 rows push it out: a later claim of the run misses the mark it saw, trimmed with every
		// older (0.3.x) value. The run keeps its lookups to its end.
		expect(await run(2, 20)).toEqual(claimOf(3, true, true));
		expect(phase()).toEqual({ phasesEnded: 1, markSeen: false });
		expect(store.storedValues().length).toBeGreaterThanOrEqual(rowsKept(4));
		// No lookups, the second mark; 20 more rows push it out with every lookup value.
		expect(await run(22, 2)).toEqual(claimOf(2, false, true));
		expect(phase()).toEqual({ phasesEnded: 1, markSeen: true });
		expect(await run(24, 20)).toEqual(claimOf(3, false, true));
		expect(phase()).toEqual({ phasesEnded: 2, markSeen: false });
		expect(store.storedValues().length).toBeGreaterThanOrEqual(rowsKept(4));
		// As a version 2 node: the rows' own values, two a row.
		expect(await run(44, 20)).toEqual(claimOf(3, false, false));
		expect(phase()).toEqual({ phasesEnded: 2, markSeen: false });
		expect(store.storedValues().length).toBeLessThan(rowsKept(4));
	});

	it('a row 0.3.1 accepted keeps its ID and stays sent once n8n has trimmed its 0.3.x values: the first upgraded run records it under its own identity', async () => {
		const store = new DeduplicationStore();
		const staticData: IDataObject = {};
		const run = async (nodeType?: string) =>
			await runActionNode({
				items: candidates(3),
				parameters: createProfile,
				deduplicationStore: store,
				staticData,
				nodeType,
			});
		acceptingAt(TEST_BASE_URL, 3);
		await run(OLD_NODE_TYPE);
		expect(outputJson(await run())).toEqual([alreadySent(0), alreadySent(1), alreadySent(2)]);

		// n8n trims the oldest values first: everything up to the mark goes (every 0.3.x value).
		const record = store.rows.get(`wf-test|n:${NODE_ID}`)!;
		const mark = createHash('md5').update('m:0.3.x-rows-are-older').digest('base64');
		record.splice(0, record.indexOf(mark) + 1);
		// The run that finds the mark trimmed, then one without 0.3.x lookups.
		expect(outputJson(await run())).toEqual([alreadySent(0), alreadySent(1), alreadySent(2)]);
		expect(outputJson(await run())).toEqual([alreadySent(0), alreadySent(1), alreadySent(2)]);
		expect(
			((staticData.global as IDataObject).candidateVerificationFormerRows as IDataObject)[NODE_ID],
		).toEqual({ phasesEnded: 1, markSeen: true });
	});

	it('a 0.3.x row counts for the credential that first runs it after the upgrade: another credential (another account) sends it', async () => {
		const store = new DeduplicationStore();
		const staticData: IDataObject = {};
		const run = async (extra: Partial<RunOptions>) =>
			await runActionNode({
				items: candidates(2),
				parameters: createProfile,
				deduplicationStore: store,
				staticData,
				...extra,
			});
		acceptingAt(TEST_BASE_URL, 2);
		await run({ nodeType: OLD_NODE_TYPE });
		expect(outputJson(await run({}))).toEqual([alreadySent(0), alreadySent(1)]);

		const requests = acceptingAt(TEST_BASE_URL, 2);
		const other = await run({ credentialId: 'cred-2' });

		expect(requests).toHaveLength(2);
		expect(outputJson(other)).toEqual([
			{ transactionId: 'TXN-0', formId: FORM_ID, name: 'Candidate 0' },
			{ transactionId: 'TXN-1', formId: FORM_ID, name: 'Candidate 1' },
		]);
	});

	it('a 0.3.1 record without the mark: the first runs after the upgrade find its rows, every one (a missing mark never seen is not trimmed)', async () => {
		const store = new DeduplicationStore();
		const staticData: IDataObject = {};
		acceptingAt(TEST_BASE_URL, 3);
		await runActionNode({
			items: candidates(3),
			parameters: createProfile,
			deduplicationStore: store,
			staticData,
			nodeType: OLD_NODE_TYPE,
		});
		for (let run = 0; run < 2; run++) {
			const upgraded = await runActionNode({
				items: candidates(3),
				parameters: createProfile,
				deduplicationStore: store,
				staticData,
			});
			expect(outputJson(upgraded)).toEqual([alreadySent(0), alreadySent(1), alreadySent(2)]);
		}
	});
});
