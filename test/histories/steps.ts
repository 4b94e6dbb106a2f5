import { Prng } from './prng';

/**
 * The universe of a history: 2 forms, 5 people (two with the same name and gender, told apart by
 * their mobile and date of birth only), each with an employee ID and an email a Duplicate Key can map.
 */
export const FORMS = ['form-1', 'form-2'] as const;
export const PEOPLE = [
	{
		name: 'Asha Rao',
		gender: 'Female',
		mobile: '+919800000001',
		dob: '01-02-1990',
		employeeId: 'E-1',
		email: 'asha.1@example.com',
	},
	{
		name: 'Asha Rao',
		gender: 'Female',
		mobile: '+919800000002',
		dob: '03-04-1991',
		employeeId: 'E-2',
		email: 'asha.2@example.com',
	},
	{
		name: 'Vikram Shah',
		gender: 'Male',
		mobile: '+919800000003',
		dob: '05-06-1985',
		employeeId: 'E-3',
		email: 'vikram@example.com',
	},
	{
		name: 'Meera Iyer',
		gender: 'Female',
		mobile: '+919800000004',
		dob: '07-08-1979',
		employeeId: 'E-4',
		email: 'meera@example.com',
	},
	{
		name: 'Kiran Das',
		gender: 'Male',
		mobile: '+919800000005',
		dob: '09-10-2000',
		employeeId: 'E-5',
		email: 'kiran@example.com',
	},
] as const;

/**
 * Instant KYC → Verify PAN's universe: 4 PANs, two of them of people with the same name (the service
 * answers the same full name for both).
 */
export const PANS = [
	{ pan: 'ABCDE1000F', fullName: 'ASHA RAO' },
	{ pan: 'ABCDE1001F', fullName: 'ASHA RAO' },
	{ pan: 'ABCDE1002F', fullName: 'VIKRAM SHAH' },
	{ pan: 'ABCDE1003F', fullName: 'MEERA IYER' },
] as const;

/**
 * Verification → Submit's universe: two transactions the service knows, two checks each with Data
 * (JSON) (a person's data); a Submit row is [scope, person], the scope a transaction's check
 * (SUBMIT_SCOPES).
 */
export const SUBMIT_TRANSACTIONS = ['TXN-S1', 'TXN-S2'] as const;
export const SUBMIT_CHECKS = ['bgv-social-media', 'bgv-global-database-check'] as const;
export const SUBMIT_SCOPES = SUBMIT_TRANSACTIONS.flatMap((transactionId) =>
	SUBMIT_CHECKS.map((check) => ({ transactionId, check })),
);

/**
 * What a step's node runs: Profile → Create (version 2, protected), Instant KYC → Verify PAN
 * (billed, no Duplicate Protection field: only promise 5 and its answers kept apply), or
 * Verification → Submit (version 2, protected within a transaction's check).
 */
export type Operation = 'profileCreate' | 'verifyPan' | 'verificationSubmit';

export type Protection =
	| 'skipSent'
	| 'off'
	| 'sendAgain'
	| 'recordAsSent'
	| 'forgetAll'
	| 'releaseLock';
export const ONE_OFF: readonly Protection[] = [
	'sendAgain',
	'recordAsSent',
	'forgetAll',
	'releaseLock',
];
export type ExecutionMode = 'manual' | 'webhook' | 'trigger' | 'retry';
export type OnError = 'stop' | 'continue' | 'errorOutput';
export type DuplicateKey = 'none' | 'employeeId' | 'email';

/** A row: a person on a form (indexes into FORMS and PEOPLE); under Verify PAN, [0, a PAN of PANS]. */
export type Row = readonly [form: number, person: number];

/** One execution of the node (Profile → Create, version 2), with everything it runs with. */
export interface Step {
	/** Undefined: Profile → Create (the histories before Verify PAN was added replay as they were). */
	operation?: Operation;
	rows: Row[];
	executionMode: ExecutionMode;
	protection: Protection;
	actInAnyExecution: boolean;
	onError: OnError;
	/** n8n's Retry On Fail: tries in all (1: off). */
	tries: number;
	concurrency: number;
	/** The n8n credential: 1 or 2 (another account). */
	credential: 1 | 2;
	duplicateKey: DuplicateKey;
	/** The seed of the service's answers to this step's requests. */
	serviceSeed: number;
	/**
	 * A second execution of the same node started at the same time (one process, the same store),
	 * with the step's credential, Duplicate Key and Skip Rows Sent Before.
	 */
	alongside?: Alongside;
	/**
	 * Whether it runs in a second n8n process (the node's code loaded again, its memory apart, the
	 * same store); otherwise in the first. Each history's node is new to both.
	 */
	otherProcess?: boolean;
	/**
	 * Retry On Fail's tries run in the two processes by turns (the first in the step's process),
	 * within n8n's one run of the execution: promise 5, a try in another process stops before sending.
	 */
	triesAcrossProcesses?: boolean;
	/**
	 * The worker is gone while it holds the lock: after the step's executions end, the lock is left
	 * in the store (as when the process died inside a hold) until Release Stuck Lock acts.
	 */
	workerGone?: boolean;
	/**
	 * n8n's store fails once during the step: its Nth call (1-based, counting every call of both
	 * executions, both scopes, in the order the node makes them) throws as a database that is locked.
	 */
	storeFailsAtCall?: number;
}

export type Alongside = Pick<
	Step,
	'rows' | 'executionMode' | 'onError' | 'tries' | 'concurrency' | 'otherProcess'
>;

/** The executions a step starts: itself, and the one alongside it. */
export function executionsOf(step: Step): Step[] {
	if (!step.alongside) return [step];
	return [step, { ...step, ...step.alongside, alongside: undefined }];
}

export interface History {
	seed: number;
	/** Duplicate Protection Options → History Size (Rows); undefined: the default (100,000). */
	historySize?: number;
	/** The node's version (typeVersion); undefined: 2. */
	typeVersion?: 1;
	/** Version 1 only: Date of Birth left unmapped (version 1 sends a row without it). */
	withoutDateOfBirth?: boolean;
	/** The lock's stuck time (lockTiming.stuckMs) while a gone worker's lock is held, from the seed. */
	lockStuckMs?: number;
	/**
	 * Duplicate Protection Options → Wait for an Answer Elsewhere (In-Doubt Wait), in ms; undefined: 0
	 * (the histories recorded before it).
	 */
	inDoubtWaitMs?: number;
	steps: Step[];
}

/**
 * The seed of the choices added after the first version (node version, other process…), drawn apart
 * from the first version's, so that a seed keeps the steps it had.
 */
const extraSeed = (seed: number) => (seed ^ 0x5bd1e995) >>> 0;
/** The seed of the store's failures and the In-Doubt Wait, apart, so that a seed keeps the rest. */
const clockSeed = (seed: number) => (seed ^ 0x27d4eb2f) >>> 0;

/** The share of steps where n8n's store fails once, and the calls among which the failing one is drawn. */
const STORE_FAILURE_SHARE = 0.1;
const STORE_FAILURE_CALLS = 12;
/** The share of histories with an In-Doubt Wait above 0, and its range (ms, from the seed). */
const IN_DOUBT_WAIT_SHARE = 0.3;
const IN_DOUBT_WAIT_MS = [20, 120] as const;

export const operationOf = (step: Pick<Step, 'operation'>): Operation =>
	step.operation ?? 'profileCreate';
export const isOneOff = (step: Step) => ONE_OFF.includes(step.protection);
/** Whether the step's one-off tool (or protection) acts: in the editor, or with Act in Any Execution. */
export const acts = (step: Step) =>
	!isOneOff(step) || step.executionMode === 'manual' || step.actInAnyExecution;

/** A history of `length` steps from `seed`. Credential and Duplicate Key stay until a step changes them. */
export function generateHistory(seed: number, length = 8): History {
	const prng = new Prng(seed);
	const historySize = prng.chance(0.3) ? prng.int(2, 4) : undefined;
	let credential: 1 | 2 = 1;
	let duplicateKey: DuplicateKey = prng.pick(['none', 'employeeId'] as const);
	const allRows: Row[] = FORMS.flatMap((_, form) =>
		PEOPLE.map((__, person) => [form, person] as const),
	);
	const panRows: Row[] = PANS.map((_, pan) => [0, pan] as const);
	const submitRows: Row[] = SUBMIT_SCOPES.flatMap((_, scope) =>
		PEOPLE.map((__, person) => [scope, person] as const),
	);
	const extra = new Prng(extraSeed(seed));
	const version1 = extra.chance(0.25);
	const lockStuckMs = extra.int(20, 60);
	let lockLeft = false;
	const clock = new Prng(clockSeed(seed));
	const inDoubtWaitMs = clock.chance(IN_DOUBT_WAIT_SHARE)
		? clock.int(...IN_DOUBT_WAIT_MS)
		: undefined;
	const steps: Step[] = [];
	for (let index = 0; index < length; index += 1) {
		if (prng.chance(0.06)) credential = credential === 1 ? 2 : 1;
		if (prng.chance(0.06)) duplicateKey = prng.pick(['none', 'employeeId', 'email'] as const);
		const operation = prng.weighted<Operation>({
			profileCreate: 60,
			verifyPan: 20,
			verificationSubmit: 20,
		});
		// A Submit node has one check (an expression for it would leave every check's fields to fill):
		// its rows are of that check, on either transaction.
		const check = prng.int(0, SUBMIT_CHECKS.length - 1);
		const rowsOfOperation =
			operation === 'verificationSubmit'
				? submitRows.filter(([scope]) => SUBMIT_SCOPES[scope].check === SUBMIT_CHECKS[check])
				: allRows;
		const execution = (manualShare: number) => ({
			executionMode: prng.weighted<ExecutionMode>({
				manual: manualShare,
				webhook: 25,
				trigger: 25,
				retry: 10,
			}),
			onError: prng.pick(['stop', 'continue', 'errorOutput'] as const),
			tries: prng.chance(0.3) ? prng.int(2, 4) : 1,
			concurrency: prng.int(1, 3),
		});
		const step =
			operation === 'verifyPan'
				? verifyPanStep(prng, panRows, execution(30), credential)
				: protectedStep(prng, operation, rowsOfOperation, execution, credential, duplicateKey);
		// Another n8n process (queue mode): a step, or the execution alongside it.
		if (extra.chance(0.15)) step.otherProcess = true;
		if (step.alongside && extra.chance(0.5)) step.alongside.otherProcess = !step.otherProcess;
		if (step.tries > 1 && extra.chance(0.4)) step.triesAcrossProcesses = true;
		// A worker gone while holding the lock; later, a person (or a production run) releasing it.
		// Verify PAN takes no lock.
		if (operation !== 'verifyPan' && lockLeft && extra.chance(0.35)) {
			step.protection = 'releaseLock';
			step.rows = step.rows.slice(0, 1);
			delete step.alongside;
			lockLeft = !acts(step);
		} else if (operation !== 'verifyPan' && step.protection === 'skipSent' && extra.chance(0.06)) {
			step.workerGone = true;
			lockLeft = true;
		}
		// Verify PAN uses no store.
		if (operation !== 'verifyPan' && clock.chance(STORE_FAILURE_SHARE))
			step.storeFailsAtCall = clock.int(1, STORE_FAILURE_CALLS);
		steps.push(step);
	}
	return {
		seed,
		historySize,
		...(version1 ? { typeVersion: 1 as const, withoutDateOfBirth: extra.chance(0.5) } : {}),
		...(steps.some((step) => step.workerGone) ? { lockStuckMs } : {}),
		...(inDoubtWaitMs === undefined ? {} : { inDoubtWaitMs }),
		steps,
	};
}

/** A step of a protected operation (Profile → Create, Submit), drawn from the history's prng. */
function protectedStep(
	prng: Prng,
	operation: Exclude<Operation, 'verifyPan'>,
	rowsOfOperation: Row[],
	execution: (manualShare: number) => Omit<Alongside, 'rows'>,
	credential: 1 | 2,
	duplicateKey: DuplicateKey,
): Step {
	const protection = prng.weighted<Exclude<Protection, 'releaseLock'>>({
		skipSent: 70,
		off: 5,
		sendAgain: 9,
		recordAsSent: 10,
		forgetAll: 6,
	});
	const oneOff = ONE_OFF.includes(protection);
	// A person resolves a few rows; a production execution runs a sheet's subset.
	const rows = prng.subsetInRandomOrder(rowsOfOperation).slice(0, oneOff ? prng.int(1, 3) : 8);
	if (prng.chance(0.1)) rows.push(prng.pick(rows));
	const step: Step = {
		// Profile → Create stays unnamed, as in the histories recorded before the others.
		...(operation === 'verificationSubmit' ? { operation } : {}),
		rows,
		...execution(oneOff ? 70 : 30),
		protection,
		actInAnyExecution: oneOff && prng.chance(0.15),
		credential,
		duplicateKey,
		serviceSeed: prng.int(0, 2 ** 31),
	};
	if (protection === 'skipSent' && prng.chance(0.2))
		step.alongside = {
			rows: prng.subsetInRandomOrder(rowsOfOperation).slice(0, 8),
			...execution(30),
		};
	return step;
}

/**
 * A Verify PAN step: a subset of the PANs in random order (sometimes one twice), sometimes with a
 * second execution of other PANs at the same time. It has no Duplicate Protection field; its
 * `protection` is Off, `duplicateKey` none.
 */
function verifyPanStep(
	prng: Prng,
	panRows: Row[],
	execution: Omit<Alongside, 'rows'>,
	credential: 1 | 2,
): Step {
	const rows = prng.subsetInRandomOrder(panRows);
	if (prng.chance(0.15)) rows.push(prng.pick(rows));
	const step: Step = {
		operation: 'verifyPan',
		rows,
		...execution,
		protection: 'off',
		actInAnyExecution: false,
		credential,
		duplicateKey: 'none',
		serviceSeed: prng.int(0, 2 ** 31),
	};
	if (prng.chance(0.15))
		step.alongside = {
			rows: prng.subsetInRandomOrder(panRows),
			executionMode: prng.pick(['webhook', 'trigger'] as const),
			onError: prng.pick(['stop', 'continue', 'errorOutput'] as const),
			tries: prng.chance(0.3) ? prng.int(2, 4) : 1,
			concurrency: prng.int(1, 3),
		};
	return step;
}

export function describeRow([form, person]: Row, operation: Operation = 'profileCreate'): string {
	if (operation === 'verifyPan') return `pan-${person}`;
	if (operation === 'verificationSubmit') {
		const { transactionId, check } = SUBMIT_SCOPES[form];
		return `${transactionId}/${check}/p${person}`;
	}
	return `${FORMS[form]}/p${person}`;
}

/** One line a person can read (the history's JSON is printed with it to replay it). */
export function describeStep(step: Step): string {
	const [first, second] = executionsOf(step);
	const failure = step.storeFailsAtCall ? ` STORE FAILS AT CALL ${step.storeFailsAtCall}` : '';
	return second
		? `${describeExecution(first)} AT ONCE WITH ${describeExecution(second)}${failure}`
		: `${describeExecution(first)}${failure}`;
}

function describeExecution(step: Step): string {
	const tool = step.actInAnyExecution ? `${step.protection}+anyExecution` : step.protection;
	const operation = operationOf(step);
	return [
		`${step.executionMode}`,
		...(step.otherProcess ? ['in-process-2'] : []),
		operation === 'verifyPan' ? 'verifyPan' : tool,
		...(operation === 'verificationSubmit' ? ['submit'] : []),
		`onError=${step.onError}`,
		step.tries > 1 ? `retryOnFail×${step.tries}` : 'noRetry',
		...(step.tries > 1 && step.triesAcrossProcesses ? ['tries-in-both-processes'] : []),
		...(step.workerGone ? ['then-worker-gone-holding-the-lock'] : []),
		`concurrency=${step.concurrency}`,
		`cred-${step.credential}`,
		`key=${step.duplicateKey}`,
		`rows=[${step.rows.map((row) => describeRow(row, operation)).join(' ')}]`,
		`service=${step.serviceSeed}`,
	].join(' ');
}
