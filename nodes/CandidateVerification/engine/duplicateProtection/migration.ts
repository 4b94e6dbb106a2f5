import type { IDataObject } from 'n8n-workflow';

import type { PreparedRequest, ServiceRead } from '../prepared';
import type { ServiceEnvelope } from '../../../shared/transport/errors';
import type { FormerRowConfirmation } from './declaration';
import { MODE_NAMES } from './fields';
import { rowIdentity } from './identity';
import type { KeptIds } from './keptIds';
import { CONTINUE_FOR_OTHER_ROWS, SWITCH_BACK, type ErrorText } from './messages';

/**
 * The migration from 0.2–0.4's identities, all of it, with its texts (the end of this file).
 *
 * Former identities: the identities earlier versions of this package gave a row. A node whose record
 * may hold rows recorded under one also looks each row up under it, in the same store calls as the
 * row's own (record.ts), until that identity's end condition is met. Adding one is adding an entry
 * to FORMER_IDENTITIES. Two kinds:
 * - `sameRow`: one former value per row, and one row per former value. A row sent under it counts as
 *   this row (accepted before). Its lookups leave their values (SENT and LOOKED_UP) and end per row.
 * - `wider`: an identity that left out something that tells rows apart, so one former value stands
 *   for several rows and a hit cannot say which one was sent: the Duplicate Key alone (before 0.5.0 put
 *   the operation's scope, the form or the transaction and check, in a keyed row's identity), or a
 *   resolution without its document URLs (before 0.5.0: a new upload is a new document). The row is
 *   held in doubt, every run, until a person records it (Record Rows as Sent) or sends it again. Its
 *   lookups leave no value.
 *
 * When each can go:
 * - 0.3.x (the host instead of the credential, the request as sent): once every node saved with
 *   0.3.x has ended its second phase, i.e. when the package stops supporting upgrades from 0.3.x
 *   (docs/duplicate-protection.md, "Rows recorded by 0.3.x").
 * - 0.3.x and 0.4.x keyed (the key without the scope), 0.4.x resolutions without document URLs: once
 *   every node that recorded such rows before 0.5.0 has ended its phase, i.e. when the package stops
 *   supporting upgrades from 0.4.x.
 * - 0.2.0's place for the kept IDs (the node's static data, keyed by the node's name), only read:
 *   when the package stops supporting upgrades from 0.2.0.
 */

/** What a row's identities are computed from: the account and operation that sent it, and the row. */
export interface RowFacts {
	environment: unknown;
	credentialId: string | null;
	/** The service's base URL (the credential's host). */
	baseUrl: string;
	method: string;
	path: string;
	/** The request as sent: body, query and path parameters. */
	request: unknown;
	/** What the operation counts as the row (its `identity`), else the request. */
	row: unknown;
	duplicateKey?: string;
	/** What the key counts within (the operation's `scope`); undefined where it has none. */
	scope?: unknown;
	/** The row as 0.4.x identified it, where that differs (the operation's `formerIdentity`). */
	formerRow?: unknown;
}

/** A keyed row of an operation with a scope: before 0.5.0 its key alone was its identity. */
const keyedInScope = ({ duplicateKey, scope }: RowFacts) =>
	duplicateKey !== undefined && scope !== undefined;

/** That identity, under the account as 0.3.x (`baseUrl`) or 0.4.x (`credentialId`) named it. */
const keyAlone = (account: 'baseUrl' | 'credentialId') => (row: RowFacts) =>
	keyedInScope(row)
		? rowIdentity([row.environment, row[account], row.method, row.path], null, row.duplicateKey)
		: undefined;

/**
 * The end condition of a former identity, in two phases, each ending once n8n has trimmed the mark
 * its claims record: n8n trims the oldest values first, so every older value is gone too (CHANGELOG:
 * every process is upgraded at once, so every value of the former version is older).
 * 1. The record may hold rows under the former identity: each row is also looked up under it. A
 *    lookup's values stay (removing a value costs n8n a scan of the whole record): the former SENT,
 *    if it was not there, and LOOKED_UP.
 * 2. Those lookups' values may still be in it.
 * During both, History Size counts two more values a row.
 */
export interface PhaseMarks {
	/** The marks of the phases, in order (`sameRow`: two; `wider`: one, its lookups leave no value). */
	marks: readonly string[];
	/** Per node ID, in the workflow's static data: the phases ended, and whether the current mark was seen. */
	stateKey: string;
}

export interface FormerIdentity {
	/** The versions that gave it. */
	name: string;
	kind: 'sameRow' | 'wider';
	/** Whether a node of this type version may hold rows recorded under it. */
	mayHoldRows(typeVersion: number): boolean;
	/** A row's value under it (a hash, as `rowIdentity` makes), or undefined where the row has none. */
	identityOf(row: RowFacts): string | undefined;
	ends: PhaseMarks;
}

export const FORMER_IDENTITIES: readonly FormerIdentity[] = [
	{
		name: '0.3.x',
		kind: 'sameRow',
		// Version 1 is the only version 0.3.x had.
		mayHoldRows: (typeVersion) => typeVersion < 2,
		identityOf: (row) => {
			if (keyedInScope(row)) return undefined;
			const { environment, baseUrl, method, path, request, duplicateKey } = row;
			return rowIdentity([environment, baseUrl, method, path], request, duplicateKey);
		},
		ends: {
			marks: ['m:0.3.x-rows-are-older', 'm:0.3.x-lookups-are-older'],
			stateKey: 'candidateVerificationFormerRows',
		},
	},
	{
		name: '0.3.x keyed',
		kind: 'wider',
		mayHoldRows: (typeVersion) => typeVersion < 2,
		identityOf: keyAlone('baseUrl'),
		ends: {
			marks: ['m:0.3.x-keyed-rows-are-older'],
			stateKey: 'candidateVerificationFormerKeysOfLegacyRows',
		},
	},
	{
		name: '0.4.x keyed',
		kind: 'wider',
		mayHoldRows: () => true,
		identityOf: keyAlone('credentialId'),
		ends: { marks: ['m:0.4.x-keyed-rows-are-older'], stateKey: 'candidateVerificationFormerKeys' },
	},
	{
		name: '0.4.x without document URLs',
		kind: 'wider',
		mayHoldRows: () => true,
		identityOf: ({ environment, credentialId, method, path, formerRow, duplicateKey }) =>
			formerRow !== undefined && duplicateKey === undefined
				? rowIdentity([environment, credentialId, method, path], formerRow)
				: undefined,
		ends: {
			marks: ['m:0.4.x-rows-without-urls-are-older'],
			stateKey: 'candidateVerificationFormerDocuments',
		},
	},
];

/** Values n8n's store keeps per row looked up under a former identity: its SENT and LOOKED_UP. */
const VALUES_PER_LOOKUP = 2;

/**
 * The former identities of one run: which are looked up (phase 1), which may still have values in
 * the record (phases 1 and 2), each row's former values, and the phases learned from the marks.
 */
export class FormerLookups {
	/** Per entry of the list: this run's phase (0 and 1: the phases; 2: ended). */
	private readonly phases: number[];

	/** Per row: its values under the `sameRow` former identities still looked up, in the list's order. */
	private readonly formerOf = new Map<string, string[]>();

	/** Per keyed row: its values under the `wider` former identities looked up. */
	private readonly widerOf = new Map<string, string[]>();

	constructor(
		/** A section of the workflow-wide static data (KeptIds.globalSection). */
		private readonly section: KeptIds['globalSection'],
		private readonly nodeId: string,
		typeVersion: number,
		private readonly identities: readonly FormerIdentity[] = FORMER_IDENTITIES,
	) {
		this.phases = identities.map((former, index) =>
			former.mayHoldRows(typeVersion) ? this.state(index).phasesEnded : former.ends.marks.length,
		);
	}

	private inPhases(): number[] {
		return this.identities
			.map((_former, index) => index)
			.filter((index) => this.phases[index] < this.identities[index].ends.marks.length);
	}

	/** Values n8n's store keeps per row beyond its own: each `sameRow` lookup's, while they may be in the record. */
	get extraValuesPerRow(): number {
		const sameRow = this.inPhases().filter((index) => this.identities[index].kind === 'sameRow');
		return VALUES_PER_LOOKUP * sameRow.length;
	}

	/** The `wider` entries some row of this run has a value under: their marks go with its claims. */
	private readonly widerLookedUp = new Set<number>();

	/**
	 * The entries whose marks this run's claims carry: `sameRow` ones in their phases, and `wider`
	 * ones once a row is looked up under them (a run without one leaves the record as 0.4.0 did).
	 */
	private carried(): number[] {
		return this.inPhases().filter(
			(index) => this.identities[index].kind === 'sameRow' || this.widerLookedUp.has(index),
		);
	}

	/** The marks that may be in the record (they never push a row out). */
	get marksKept(): number {
		return this.inPhases()
			.filter((index) => this.carried().includes(index) || this.state(index).markSeen)
			.reduce((sum, index) => sum + this.identities[index].ends.marks.length, 0);
	}

	/** The marks a claim records: each phase's own. */
	marks(): string[] {
		return this.carried().map((index) => this.identities[index].ends.marks[this.phases[index]]);
	}

	/** Notes a row's values under the former identities whose rows are looked up. */
	note(identity: string, facts: RowFacts): void {
		const values: Record<FormerIdentity['kind'], string[]> = { sameRow: [], wider: [] };
		this.identities.forEach((former, index) => {
			if (this.phases[index] !== 0) return;
			const value = former.identityOf(facts);
			if (value === undefined) return;
			values[former.kind].push(value);
			if (former.kind === 'wider') this.widerLookedUp.add(index);
		});
		if (values.sameRow.length > 0) this.formerOf.set(identity, values.sameRow);
		if (values.wider.length > 0) this.widerOf.set(identity, values.wider);
	}

	/** A row's values under the `sameRow` former identities it is still looked up under. */
	of(identity: string): string[] {
		return this.formerOf.get(identity) ?? [];
	}

	/** A keyed row's values under the `wider` former identities (its key before 0.5.0). */
	wider(identity: string): string[] {
		return this.widerOf.get(identity) ?? [];
	}

	/**
	 * After a claim: `lookedUpNow` says which former values were looked up for the first time. Those
	 * looked up before count no more for the row (an earlier lookup's SENT, or a former row already
	 * found by the credential that first looked it up). `markAdded`: which marks were added.
	 */
	claimed(
		rows: string[],
		lookedUpNow: (value: string) => boolean,
		markAdded: (mark: string) => boolean,
	) {
		for (const index of this.carried()) {
			this.learnPhase(index, markAdded(this.identities[index].ends.marks[this.phases[index]]));
		}
		for (const identity of rows) {
			const kept = this.of(identity).filter(lookedUpNow);
			if (kept.length > 0) this.formerOf.set(identity, kept);
			else this.formerOf.delete(identity);
		}
	}

	private state(index: number): { phasesEnded: number; markSeen: boolean } {
		const known = this.section(this.identities[index].ends.stateKey)?.[this.nodeId];
		return { phasesEnded: 0, markSeen: false, ...(known as object) };
	}

	/**
	 * After a claim that carried its phase's mark: a mark seen before and missing now (added again)
	 * was trimmed, and the phase ended. Fail-safe: a static data that lost it starts again.
	 */
	private learnPhase(index: number, markAdded: boolean): void {
		const known = this.section(this.identities[index].ends.stateKey, true);
		const { phasesEnded, markSeen } = this.state(index);
		if (!known || phasesEnded !== this.phases[index]) return;
		known[this.nodeId] =
			markAdded && markSeen
				? { phasesEnded: phasesEnded + 1, markSeen: false }
				: { phasesEnded, markSeen: true };
	}
}

/** Where 0.2.0 kept the IDs (the node's static data, keyed by the node's name): still read. */
const LEGACY_STATIC_DATA_KEY = 'sentRows';
/**
 * Recorded with each lookup under a former identity, in the same call: the former identity was
 * looked up before, so its value, if any, counts no more (it is an earlier lookup's, or a former row
 * that counts for the credential that first looked it up: another credential is another account).
 */
const LOOKED_UP = 'l:';

/** The migration as the record (SentRecord) sees it: the former identities' lookups and kept IDs. */
export class Migration extends FormerLookups {
	/**
	 * Rows held in doubt because a wider former identity found a row recorded before 0.5.0 (the key
	 * alone, whatever the form or check; a resolution without its document URLs): the values found.
	 */
	private readonly widerHits = new Map<string, string[]>();

	constructor(
		private readonly kept: KeptIds,
		nodeId: string,
		typeVersion: number,
		/** The prefixes of a row's values in the record (record.ts). */
		private readonly values: Record<'SENT' | 'ACCEPTED', string>,
	) {
		super((key, toWrite) => kept.globalSection(key, toWrite), nodeId, typeVersion);
	}

	/** A row's identity, and its former identities where it may have rows under them. */
	withFormer(identity: string): string[] {
		return [identity, ...this.of(identity)];
	}

	/**
	 * A claim's lookups: `first`, recorded before the rows' SENT (a former row's SENT is older than
	 * the row's own, trimmed first), and `passing`, after them and removed again at once (the wider
	 * identities'; none with `wider` false: Send These Rows Again sends whatever a key found before
	 * 0.5.0). `read` takes the values the claim added: the rows new, and the values to remove.
	 */
	lookUp(unique: string[], wider = true) {
		const { SENT, ACCEPTED } = this.values;
		const former = unique.flatMap((identity) => this.of(identity));
		const keyed = wider ? [...new Set(unique.flatMap((identity) => this.wider(identity)))] : [];
		const passing = keyed.flatMap((each) => [SENT + each, ACCEPTED + each]);
		const first = [...former.flatMap((each) => [SENT + each, LOOKED_UP + each]), ...this.marks()];
		const read = (added: Set<string>) => {
			// Looked up before (LOOKED_UP was there): the former identity counts no more for the row.
			this.claimed(
				unique,
				(value) => added.has(LOOKED_UP + value),
				(mark) => added.has(mark),
			);
			const fresh = new Set(
				unique.filter((identity) =>
					this.withFormer(identity).every((each) => added.has(SENT + each)),
				),
			);
			// A new row found under a wider former identity: in doubt, and its own SENT goes with the
			// lookup's values (nothing is sent for it).
			const foundUnderKey = (value: string) =>
				!added.has(SENT + value) || !added.has(ACCEPTED + value);
			for (const identity of fresh) {
				const found = this.wider(identity).filter(foundUnderKey);
				if (found.length === 0 || !wider) continue;
				fresh.delete(identity);
				this.widerHits.set(identity, found);
			}
			const keyedHitNow = unique.filter(
				(identity) => this.widerHits.has(identity) && added.has(SENT + identity),
			);
			const toRemove = [
				...passing.filter((value) => added.has(value)),
				...keyedHitNow.map((identity) => SENT + identity),
			];
			return { fresh, toRemove };
		};
		return { first, passing, read };
	}

	/** Whether a row in doubt is held because a wider former identity found it. */
	heldByWider(identity: string): boolean {
		return this.widerHits.has(identity);
	}

	/** Whether a row in doubt is one a wider former identity found, and the ID the node kept for it. */
	foundUnderWider(identity: string): { id?: string } | undefined {
		const found = this.widerHits.get(identity);
		if (found === undefined) return undefined;
		const id = found
			.map((value) => this.saved(value))
			.filter(Array.isArray)
			.map((saved) => saved[1])
			.find((saved) => ![undefined, null, ''].includes(saved));
		return id === undefined ? {} : { id: String(id) };
	}

	/** What the static data kept of a row: under its identity, its former ones, or 0.2.0's place. */
	keptOf(identity: string): unknown {
		return this.withFormer(identity)
			.map((each) => this.saved(each))
			.find(Array.isArray);
	}

	keepIdUnderOwn(identity: string): void {
		const saved = this.of(identity)
			.map((former) => this.saved(former))
			.find(Array.isArray);
		if (Array.isArray(saved)) this.kept.copy(identity, saved);
	}

	/** What the static data kept under `value`, or 0.2.0's place (n8n makes it when it is first read). */
	private saved(value: string): unknown {
		return (
			this.kept.saved(value) ?? this.kept.staticData('node')?.[LEGACY_STATIC_DATA_KEY]?.[value]
		);
	}
}

/** The run's reads of the service (Record Rows as Sent asks it about rows keyed before 0.5.0). */
export type ReadForRecording = (label: string, request: ServiceRead) => Promise<ServiceEnvelope>;

/**
 * A row keyed before 0.5.0 that Record Rows as Sent is asked to record: the service is read for
 * the ID given (the operation's FormerRowConfirmation). Undefined when the answer names the row's
 * own scope; else what was learned.
 */
export async function readFormerRow(
	{ ownValue, readLabel, read: readOf, valuesIn }: FormerRowConfirmation,
	prepared: PreparedRequest,
	id: string,
	read: ReadForRecording,
): Promise<FormerRowAnswer | undefined> {
	const own = ownValue(prepared);
	const request = readOf(prepared, id);
	if ('lacks' in request) return request;
	try {
		const { data } = await read(readLabel, request);
		const on = valuesIn((data ?? {}) as IDataObject);
		if (on.length > 0 && on.every((value) => value === own)) return undefined;
		return on.length > 0 ? { on: on.filter((value) => value !== own) } : { namesNone: true };
	} catch (caught) {
		return { failed: (caught as Error)?.message ?? String(caught) };
	}
}

// The texts of rows keyed before 0.5.0 and of resolutions recorded without their document URLs

/**
 * How a person tells whether a row keyed before 0.5.0 is this one: the node reads the service
 * itself when Record Rows as Sent records it (Profile: the transaction's form), a person reads the
 * check (Submit: every check of a candidate shares its transaction ID), or a person looks.
 */
export type KeyedResolution =
	| { kind: 'confirmed'; what: string; readLabel: string }
	| { kind: 'readCheck'; transactionId: string; check: string }
	| { kind: 'person' };

/** A row held in doubt by a former identity: `where` to check it, `stops`: On Error → Stop. */
type HeldRow = { label: string; itemIndex: number; where: string; stops: boolean };

/**
 * A row whose Duplicate Key found a row recorded before 0.5.0, when a key counted across forms and
 * checks: the service may have this row, or another form's or check's row with that key.
 */
export function keyedBefore(
	facts: HeldRow & { key: string; field: string; keptId?: string; how: KeyedResolution },
): ErrorText {
	const { label, itemIndex, key, field, keptId, where, stops, how } = facts;
	const kept = keptId === undefined ? '' : ` (the node kept ${field} ${keptId} for that key)`;
	const before = `${label}: before 0.5.0 a Duplicate Key counted across forms and checks, and a row with the key "${key}" was sent then${kept}`;
	const sendAgain = `run only this row with Duplicate Protection → ${MODE_NAMES.sendAgain}`;
	const [maybe, lines]: [string, string[]] =
		how.kind === 'confirmed'
			? [
					`another ${how.what}`,
					[
						`${before}, for this ${how.what} or another one. ${where}.`,
						`Run this row (item ${itemIndex}) with Duplicate Protection → ${MODE_NAMES.recordAsSent} and the ${field} written back from that run: the node reads it (${how.readLabel}) and records the row only if it is on this row’s ${how.what}. If it is on another ${how.what}, the node says so: then ${sendAgain}. ${SWITCH_BACK}`,
					],
				]
			: how.kind === 'readCheck'
				? [
						'another check',
						[
							`${before}, for this check or another check of transaction ${how.transactionId}: its checks share that ID, so the ID cannot tell.`,
							`Read this check with Transaction → Get Check Status (transaction ${how.transactionId}, check ${how.check}). It shows this check’s submitted data: run only this row (item ${itemIndex}) with Duplicate Protection → ${MODE_NAMES.recordAsSent}. It does not: ${sendAgain}. ${SWITCH_BACK}`,
						],
					]
				: [
						'another form or check',
						[
							`${before}, for this form or check or another one. ${where}.`,
							`If the service has this row: run only this row (item ${itemIndex}) with Duplicate Protection → ${MODE_NAMES.recordAsSent}, with the ${field} the service gave it. If not: ${sendAgain}. ${SWITCH_BACK}`,
						],
					];
	if (stops) lines.push(CONTINUE_FOR_OTHER_ROWS);
	return {
		message: `Item ${itemIndex} was keyed before 0.5.0: a row with its Duplicate Key was sent then, maybe for ${maybe}`,
		description: lines.join('\n'),
	};
}

/** What Record Rows as Sent learned of the ID given to a row keyed before 0.5.0 (FormerRowConfirmation). */
export type FormerRowAnswer =
	| { on: string[] }
	| { lacks: string }
	| { failed: string }
	| { namesNone: true };

/**
 * Record Rows as Sent did not record a row keyed before 0.5.0: the ID given is another `what`'s
 * (its form), or the node could not tell (no answer naming one, nothing to read it with).
 */
export function formerRowNotRecorded(facts: {
	itemIndex: number;
	key: string;
	field: string;
	id: string;
	what: string;
	own: string;
	readLabel: string;
	answer: FormerRowAnswer;
	stops: boolean;
}): ErrorText {
	const { itemIndex, key, field, id, what, own, readLabel, answer, stops } = facts;
	const sendAgain = `run only this row (item ${itemIndex}) with Duplicate Protection → ${MODE_NAMES.sendAgain}`;
	const on = 'on' in answer && answer.on.length > 0 ? answer.on : undefined;
	const [reason, thisOne] = on
		? [`${field} ${id} is on another ${what} (${on.join(', ')}), not on this row’s ${what} ${own}`]
		: 'lacks' in answer
			? [
					`no ${answer.lacks} to read ${field} ${id} with (this node or the credential)`,
					`set the ${answer.lacks} in this node or the credential, and run this row with ${MODE_NAMES.recordAsSent} again.`,
				]
			: 'failed' in answer
				? [
						`reading ${field} ${id} failed: ${answer.failed}`,
						`run this row with ${MODE_NAMES.recordAsSent} again once the service answers.`,
					]
				: [
						`the service’s answer for ${field} ${id} names no ${what}`,
						`the service has this row: leave it out of this node’s input (the node records it only from an answer that names its ${what}).`,
					];
	const lines = [
		on
			? `${readLabel} names it. Before 0.5.0 the Duplicate Key "${key}" counted across ${what}s: the row sent then with it is that ${what}’s, and this row was never sent. To send it, ${sendAgain}. ${SWITCH_BACK}`
			: `Before 0.5.0 the Duplicate Key "${key}" counted across ${what}s, so this row is recorded only once the service shows ${field} ${id} on this row’s ${what}. Compare at the service (its dashboard): the ${what} of ${field} ${id} with this row’s ${what}, ${own}. Another ${what}: ${sendAgain}. This ${what}: ${thisOne} ${SWITCH_BACK}`,
	];
	if (stops) {
		lines.push(
			'The run stopped at this row; the rows it recorded stay recorded. Set Settings → On Error to Continue to get every row not recorded on the error output.',
		);
	}
	const message = `Item ${itemIndex} was not recorded: ${reason}`;
	return { message, description: lines.join('\n') };
}

/**
 * A resolution whose answers were sent before 0.5.0, when its identity left out document URLs: it
 * may be that one again, or a new document for a question raised again.
 */
export function documentsBefore(facts: HeldRow): ErrorText {
	const { label, itemIndex, where, stops } = facts;
	const lines = [
		`${label}: before 0.5.0 a resolution was told apart without its document URLs, and one with these answers was sent then, maybe with another document. ${where}.`,
		`If this is that resolution again: run only this row (item ${itemIndex}) with Duplicate Protection → ${MODE_NAMES.recordAsSent}. If it answers a question raised again (a new upload): run only this row with Duplicate Protection → ${MODE_NAMES.sendAgain}. ${SWITCH_BACK}`,
	];
	if (stops) lines.push(CONTINUE_FOR_OTHER_ROWS);
	return {
		message: `Item ${itemIndex} may have been sent before 0.5.0 with another document: not sent`,
		description: lines.join('\n'),
	};
}
