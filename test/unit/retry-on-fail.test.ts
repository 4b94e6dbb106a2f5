import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeParameters,
	INodeType,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { CandidateVerification } from '../../nodes/CandidateVerification/CandidateVerification.node';
import { kycSummary } from '../../nodes/CandidateVerification/actions/instantKyc/shared';
import * as protectionSays from '../../nodes/CandidateVerification/engine/duplicateProtection/messages';
import {
	acceptedBeforeStop,
	answeredBeforeStop,
	earlierTryNotKept,
	howToSendTheRest,
	LOST_ANSWER_ADVICE,
	lostInEarlierTry,
	noClearAnswer,
	notSentAfterStop,
	sentWithoutAnswerInEarlierTry,
	TRIES_NOT_TOLD,
} from '../../nodes/CandidateVerification/engine/messages';
import { operation as formCreateOperation } from '../../nodes/CandidateVerification/actions/form/create.operation';
import { operation as webhookConfigCreateOperation } from '../../nodes/CandidateVerification/actions/webhookConfig/create.operation';
import { operation as submitOperation } from '../../nodes/CandidateVerification/actions/verification/submit.operation';
import { operation as verifyPanOperation } from '../../nodes/CandidateVerification/actions/instantKyc/verifyPan.operation';
import { operation as profileCreateOperation } from '../../nodes/CandidateVerification/actions/profile/create.operation';
import { operation as resolveInsufficiencyOperation } from '../../nodes/CandidateVerification/actions/verification/resolveInsufficiency.operation';
import { addNodeType } from '../harness/environment';
import { outputJson, runActionNode, type NodeRunResult } from '../harness/run-node';
import { enableMockedNetwork, mockService, success } from '../harness/service-mock';

/**
 * n8n's Retry On Fail (issue 50, point 4): no try sends again an item an earlier try got an answer
 * for, nor one whose answer was lost, for every operation duplicate protection guards in every
 * Duplicate Protection mode and for billed calls; under On Error → Stop and under Continue, where
 * n8n runs the node again when its first output item carries an error. The node keeps what a try
 * settled in its process and leaves a mark in the execution (engine/acceptedMemory.ts): these
 * tests run n8n-core's own loop of tries, so a change in how n8n runs them fails here.
 */
enableMockedNetwork();

const V = '/verification/api/1.0';
const FORM_ID = 'form-1';
// eslint-disable-next-line @n8n/community-nodes/no-hardcoded-secrets -- a made-up secret for a fake service
const WEBHOOK_SECRET = 'whsec-5e1f0c9a77d24b1c';
const DEFAULT_WHEN_SAFE = protectionSays.whenSafeToSendAgain(60_000, 2);

/** An operation duplicate protection guards, on rows told apart by their number. */
interface Guarded {
	label: string;
	path: string;
	parameters: INodeParameters;
	item(row: number): IDataObject;
	/** The row a request is for, from its body. */
	rowOf(body: IDataObject): number;
	/** The data of the service's answer to a row. */
	answer(row: number): IDataObject | undefined;
	/** The node's output for a row the service accepted. */
	output(row: number): IDataObject;
	/** Where duplicate protection's advice says to look for a row. */
	whereToCheck(row: number): string;
}

const trailingNumber = (text: unknown) => Number(String(text).split(/[ /-]/).pop());

const GUARDED: Record<string, Guarded> = {
	'Profile → Create': {
		label: profileCreateOperation.label,
		path: `${V}/ekyc-forms/${FORM_ID}/diy-candidate`,
		parameters: {
			resource: 'profile',
			operation: 'create',
			formId: FORM_ID,
			name: '={{ $json.name }}',
			gender: 'Female',
		},
		item: (row) => ({ name: `Candidate ${row}` }),
		rowOf: (body) => trailingNumber(body.name),
		answer: (row) => ({ transactionId: `TXN-${row}` }),
		output: (row) => ({ transactionId: `TXN-${row}`, formId: FORM_ID, name: `Candidate ${row}` }),
		whereToCheck: () => protectionSays.whereToCheck([undefined]),
	},
	'Form → Create': {
		label: formCreateOperation.label,
		path: `${V}/ekyc-forms`,
		parameters: {
			resource: 'form',
			operation: 'create',
			name: '={{ $json.name }}',
			purpose: 'purpose-bgv',
			checks: ['bgv-employment'],
			skippableChecks: [],
			userPaymentRequired: false,
			visibility: 'private',
			additionalFields: {},
		},
		item: (row) => ({ name: `Form ${row}` }),
		rowOf: (body) => trailingNumber(body.name),
		answer: (row) => ({ _id: `form-${row}`, name: `Form ${row}` }),
		output: (row) => ({ _id: `form-${row}`, name: `Form ${row}` }),
		whereToCheck: () => protectionSays.whereToCheck([undefined]),
	},
	'Webhook Config → Create': {
		label: webhookConfigCreateOperation.label,
		path: `${V}/webhook-config`,
		parameters: {
			resource: 'webhookConfig',
			operation: 'create',
			endpoint: '={{ $json.endpoint }}',
			apiKey: WEBHOOK_SECRET,
		},
		item: (row) => ({ endpoint: `https://n8n.example.com/webhook/${row}` }),
		rowOf: (body) => trailingNumber(body.endpoint),
		answer: (row) => ({ id: `cfg-${row}` }),
		output: (row) => ({ id: `cfg-${row}`, endpoint: `https://n8n.example.com/webhook/${row}` }),
		whereToCheck: () => protectionSays.whereToCheck([undefined]),
	},
	'Verification → Submit': {
		label: submitOperation.label,
		path: `${V}/bgv/diy`,
		parameters: {
			resource: 'verification',
			operation: 'submit',
			verificationName: 'bgv-social-media',
			transactionId: '={{ $json.transactionId }}',
			data: '{"linkedinUrl":"https://www.linkedin.com/in/asha"}',
		},
		item: (row) => ({ transactionId: `TXN-${row}` }),
		rowOf: (body) => trailingNumber(body.transactionId),
		answer: () => undefined,
		output: (row) => ({
			transactionId: `TXN-${row}`,
			verificationName: 'bgv-social-media',
			submitted: true,
		}),
		whereToCheck: (row) => protectionSays.whereToCheck([`TXN-${row}`], 'transactionStatus'),
	},
	'Verification → Resolve Insufficiency': {
		label: resolveInsufficiencyOperation.label,
		path: `${V}/bgv/insufficiency`,
		parameters: {
			resource: 'verification',
			operation: 'resolveInsufficiency',
			transactionId: '={{ $json.transactionId }}',
			verificationId: 'check-1',
			answers: { answer: [{ insufficiencyId: 'ins-1', value: 'Acme Ltd' }] },
		},
		item: (row) => ({ transactionId: `TXN-${row}` }),
		rowOf: (body) => trailingNumber(body.transactionId),
		answer: () => undefined,
		output: (row) => ({ transactionId: `TXN-${row}`, verificationId: 'check-1', resolved: true }),
		whereToCheck: (row) => protectionSays.whereToCheck([`TXN-${row}`], 'checkStatus'),
	},
};

const MODES = ['off', 'sendAgain', 'skipSent'] as const;
type Mode = (typeof MODES)[number];

/** The advice on a row whose answer was lost: duplicate protection's unless it is Off. */
const lostAdvice = (operation: Guarded, mode: Mode, row: number) =>
	mode === 'off'
		? LOST_ANSWER_ADVICE
		: protectionSays.lostAnswerAdvice(operation.whereToCheck(row), DEFAULT_WHEN_SAFE);

/** The connection reset after the service acted on the request (it created the row, or billed). */
const reset = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });

/**
 * The service: it acts on every request; for the rows in `lost` it resets the connection instead of
 * answering. `sent(row)`: how many requests reached it for that row (each one created the row).
 */
function serviceFor(operation: Guarded, lost: number[]) {
	const { scope, requests } = mockService();
	scope
		.post(operation.path)
		.times(20)
		.reply((_uri, body, answer) => {
			const row = operation.rowOf(body as IDataObject);
			if (lost.includes(row)) answer(reset(), undefined as never);
			else answer(null, [200, success(operation.answer(row))]);
		});
	const sent = (row: number) =>
		requests.filter(({ body }) => operation.rowOf(body as IDataObject) === row).length;
	return { requests, sent };
}

/**
 * An item on n8n's error output: its error's message, then its advice (n8n adds the input row's
 * fields).
 */
const onErrorOutput = (
	row: IDataObject,
	{ message, description }: { message: string; description?: string },
) => ({ ...row, error: [message, description].filter(Boolean).join('\n') });

const paired = (result: NodeRunResult, items: INodeExecutionData[]) =>
	items.map(({ json, pairedItem }) => ({ json, pairedItem }));

describe('n8n’s Retry On Fail under On Error → Stop: the service creates the candidate and resets the connection', () => {
	const profile = GUARDED['Profile → Create'];

	it.each(MODES)(
		'Duplicate Protection %s: no later try creates it again; every try stops at it with the lost-answer advice',
		async (mode) => {
			const { sent } = serviceFor(profile, [1]);

			const result = await runActionNode({
				items: [0, 1, 2].map(profile.item),
				parameters: {
					...profile.parameters,
					duplicateProtection: mode,
					requestOptions: { maxConcurrentRequests: 1 },
				},
				retryOnFail: { maxTries: 3 },
			});

			expect([0, 1, 2].map(sent)).toEqual([1, 1, 0]);
			const text = sentWithoutAnswerInEarlierTry(profile.label, 1, lostAdvice(profile, mode, 1));
			expect(result.error?.message).toBe(text.message);
			const rest = howToSendTheRest({
				creates: true,
				billedPerCall: false,
				skipsRowsSent: mode === 'skipSent',
				answersLost: true,
				heldInDoubt: false,
				accepted: true,
				lostKeptForTries: true,
			});
			expect(result.error?.description).toBe(
				[
					text.description,
					acceptedBeforeStop([[0, 'TXN-0']]),
					noClearAnswer([1]),
					notSentAfterStop([2], rest),
				].join('\n'),
			);
		},
	);
});

describe('n8n’s Retry On Fail under On Error → Continue (using error output): n8n runs the node again while its first item carries an error', () => {
	const cases = Object.entries(GUARDED).flatMap(([name, operation]) =>
		MODES.map((mode): [string, Mode, Guarded] => [name, mode, operation]),
	);

	it.each(cases)(
		'%s, Duplicate Protection %s: the answered item comes out from the earlier try’s answer, the one whose answer was lost fails with the lost-answer advice; each is sent once',
		async (_name, mode, operation) => {
			const { sent } = serviceFor(operation, [0]);

			const result = await runActionNode({
				items: [0, 1].map(operation.item),
				parameters: { ...operation.parameters, duplicateProtection: mode },
				continueOnFail: 'errorOutput',
				retryOnFail: { maxTries: 2 },
			});

			expect([0, 1].map(sent)).toEqual([1, 1]);
			expect(result.error).toBeUndefined();
			expect(paired(result, result.items)).toEqual([
				{ json: operation.output(1), pairedItem: { item: 1 } },
			]);
			const lost = sentWithoutAnswerInEarlierTry(
				operation.label,
				0,
				lostAdvice(operation, mode, 0),
			);
			expect(paired(result, result.errorItems)).toEqual([
				{ json: onErrorOutput(operation.item(0), lost), pairedItem: { item: 0 } },
			]);
		},
	);

	it('Send These Rows Again: the repeat of a row an earlier try sent without an answer is still named, never sent', async () => {
		const profile = GUARDED['Profile → Create'];
		const { sent } = serviceFor(profile, [0]);

		const result = await runActionNode({
			items: [profile.item(0), profile.item(0)],
			parameters: { ...profile.parameters, duplicateProtection: 'sendAgain' },
			continueOnFail: 'errorOutput',
			retryOnFail: { maxTries: 2 },
		});

		expect(sent(0)).toBe(1);
		const lost = sentWithoutAnswerInEarlierTry(
			profile.label,
			0,
			lostAdvice(profile, 'sendAgain', 0),
		);
		expect(outputJson({ ...result, items: result.errorItems })).toEqual([
			onErrorOutput(profile.item(0), lost),
			onErrorOutput(profile.item(0), { message: protectionSays.repeatedRow(1, 0, false).message }),
		]);
	});
});

/** Verify PAN over the items' `pan`, one request at a time. */
const VERIFY_PAN_ONE_AT_A_TIME = {
	resource: 'instantKyc',
	operation: 'verifyPan',
	pan: '={{ $json.pan }}',
	requestOptions: { maxConcurrentRequests: 1 },
};

/** The service's answer to a valid PAN: the name it gives is NAME and the PAN. */
const panAnswered = (pan: unknown): [number, IDataObject] => [
	200,
	success({ fullName: `NAME ${String(pan)}`, pan, status: 'VALID' }),
];

describe('n8n’s Retry On Fail on a billed call under On Error → Continue (using error output)', () => {
	const PAN_PATH = `${V}/verifications/pan`;
	const pans = ['ABCDE1000F', 'ABCDE1001F', 'ABCDE1002F'];

	it('Verify PAN: a refused first item is called again; the answered one is billed once and comes out from the first try; the one whose answer was lost is not called again', async () => {
		const { scope, requests } = mockService();
		let refusedOnce = false;
		scope
			.post(PAN_PATH)
			.times(10)
			.reply((_uri, body, answer) => {
				const { pan } = body as IDataObject;
				if (pan === pans[0] && !refusedOnce) {
					refusedOnce = true;
					answer(null, [200, { code: -1, message: 'Source unavailable, try again', data: null }]);
				} else if (pan === pans[2]) answer(reset(), undefined as never);
				else answer(null, panAnswered(pan));
			});

		const result = await runActionNode({
			items: pans.map((pan) => ({ pan })),
			parameters: VERIFY_PAN_ONE_AT_A_TIME,
			continueOnFail: 'errorOutput',
			retryOnFail: { maxTries: 2 },
		});

		const calls = pans.map(
			(pan) => requests.filter(({ body }) => (body as IDataObject).pan === pan).length,
		);
		expect(calls).toEqual([2, 1, 1]);
		expect(result.items.map(({ json }) => kycSummary(json))).toEqual(
			[pans[0], pans[1]].map((pan) => ({ valid: true, reason: 'Success', name: `NAME ${pan}` })),
		);
		expect(result.items.map(({ pairedItem }) => pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(paired(result, result.errorItems)).toEqual([
			{
				json: onErrorOutput({ pan: pans[2] }, lostInEarlierTry(verifyPanOperation.label, 2)),
				pairedItem: { item: 2 },
			},
		]);
	});
});

describe('File → Upload and Webhook Config → Update keep trying an item whose answer was lost', () => {
	it('Webhook Config → Update: the next try makes the same change again', async () => {
		const { scope, requests } = mockService();
		scope.put(`${V}/webhook-config/cfg-1`).replyWithError(reset());
		scope.put(`${V}/webhook-config/cfg-1`).reply(200, success({ id: 'cfg-1' }));

		const result = await runActionNode({
			parameters: {
				resource: 'webhookConfig',
				operation: 'update',
				configId: 'cfg-1',
				endpoint: 'https://n8n.example.com/webhook/1',
				apiKey: WEBHOOK_SECRET,
			},
			retryOnFail: { maxTries: 2 },
		});

		expect(result.error).toBeUndefined();
		expect(requests).toHaveLength(2);
		expect(outputJson(result)).toEqual([
			{ id: 'cfg-1', endpoint: 'https://n8n.example.com/webhook/1' },
		]);
	});

	it('File → Upload: the next try uploads the file again (a second file at the service)', async () => {
		const { scope, requests } = mockService();
		const upload = () => scope.post('/utility/api/1.0/files').query({ fileCategory: 'bgv-cibil' });
		upload().replyWithError(reset());
		upload().reply(200, success({ fileUrl: 'https://files.cv.test/private/pan.pdf' }));

		const result = await runActionNode({
			items: [
				{
					__files: {
						document: {
							base64: Buffer.from('%PDF-1.4\n%\n').toString('base64'),
							fileName: 'pan.pdf',
							mimeType: 'application/pdf',
						},
					},
				},
			],
			parameters: {
				resource: 'file',
				operation: 'upload',
				binaryPropertyName: 'document',
				fileCategory: 'bgv-cibil',
			},
			retryOnFail: { maxTries: 2 },
		});

		expect(result.error).toBeUndefined();
		expect(requests).toHaveLength(2);
		expect(outputJson(result)).toEqual([
			{
				fileUrl: 'https://files.cv.test/private/pan.pdf',
				fileCategory: 'bgv-cibil',
				fileName: 'pan.pdf',
			},
		]);
	});
});

describe('What the memory rests on beyond n8n’s interfaces: a broken assumption stops the node before it sends', () => {
	const profile = GUARDED['Profile → Create'];

	/**
	 * The action node whose tries run in two processes by turns (the node's modules loaded twice,
	 * each with its own memory), as if n8n ran a try of Retry On Fail elsewhere: the execution, its
	 * data and the node's context stay the same.
	 */
	function triesInTwoProcesses(): string {
		const versionOne = (node: CandidateVerification) =>
			NodeHelpers.getVersionedNodeType(node, 1) as INodeType;
		type NodeModule = { CandidateVerification: typeof CandidateVerification };
		let other: CandidateVerification | undefined;
		jest.isolateModules(() => {
			const path = '../../nodes/CandidateVerification/CandidateVerification.node';
			// eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh copy of the modules, as another process has
			const fresh = require(path) as NodeModule;
			other = new fresh.CandidateVerification();
		});
		const processes = [versionOne(new CandidateVerification()), versionOne(other!)];
		let tries = 0;
		const name = 'test.candidateVerificationTriesInTwoProcesses';
		addNodeType(name, {
			description: processes[0].description,
			methods: processes[0].methods,
			async execute(this: IExecuteFunctions) {
				return await processes[tries++ % 2].execute!.call(this);
			},
		});
		return name;
	}

	it('the next try in another process (Duplicate Protection Off): nothing is sent, the error names the items the earlier try settled and the ID the service gave', async () => {
		const { sent } = serviceFor(profile, [1]);

		const result = await runActionNode({
			items: [0, 1, 2].map(profile.item),
			parameters: {
				...profile.parameters,
				duplicateProtection: 'off',
				requestOptions: { maxConcurrentRequests: 1 },
			},
			retryOnFail: { maxTries: 2 },
			nodeType: triesInTwoProcesses(),
		});

		expect([0, 1, 2].map(sent)).toEqual([1, 1, 0]);
		const { message, description } = earlierTryNotKept({ answered: [0], lost: [1] });
		expect(result.error?.message).toBe(message);
		// n8n shows only this try's error: the ID the earlier try's error gave is not lost.
		expect(result.error?.description).toBe(`${description}\n${acceptedBeforeStop([[0, 'TXN-0']])}`);
	});

	it('Verify PAN, the next try in another process: nothing is called, and the error gives the answer the earlier try bought', async () => {
		const { scope, requests } = mockService();
		const pans = ['ABCDE1000F', 'ABCDE1001F'];
		scope
			.post(`${V}/verifications/pan`)
			.times(4)
			.reply((_uri, body, answer) => {
				const { pan } = body as IDataObject;
				if (pan === pans[1]) answer(reset(), undefined as never);
				else answer(null, panAnswered(pan));
			});

		const result = await runActionNode({
			items: pans.map((pan) => ({ pan })),
			parameters: VERIFY_PAN_ONE_AT_A_TIME,
			retryOnFail: { maxTries: 2 },
			nodeType: triesInTwoProcesses(),
		});

		expect(requests.map(({ body }) => (body as IDataObject).pan)).toEqual(pans);
		const { message, description } = earlierTryNotKept({ answered: [0], lost: [1] });
		expect(result.error?.message).toBe(message);
		expect(result.error?.description).toBe(
			`${description}\n${answeredBeforeStop([[0, { valid: true, reason: 'Success', name: `NAME ${pans[0]}` }]])}`,
		);
	});

	it('a run n8n gives no execution ID, with Retry On Fail on: nothing is sent', async () => {
		const { requests } = serviceFor(profile, []);

		const result = await runActionNode({
			items: [profile.item(0)],
			parameters: { ...profile.parameters, duplicateProtection: 'off' },
			retryOnFail: { maxTries: 2 },
			executionId: '',
		});

		expect(requests).toHaveLength(0);
		expect(result.error?.message).toBe(TRIES_NOT_TOLD.message);
		expect(result.error?.description).toBe(TRIES_NOT_TOLD.description);
	});
});
