import { createHash } from 'node:crypto';
import { DataDeduplicationService } from 'n8n-core';
import type {
	DeduplicationItemTypes,
	DeduplicationScope,
	ICheckProcessedContextData,
	ICheckProcessedOptions,
	IDataDeduplicator,
	IDeduplicationOutput,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

/**
 * n8n's deduplication store as n8n 2.41.1's DeduplicationHelper keeps it (one row per workflow and
 * context, an MD5 of each value, read and written whole with an await in between, no lock), in
 * memory: a scope's first row is an INSERT that fails like the database's primary key when another
 * call inserted it in between (Postgres' unique violation), an UPDATE of a row deleted in between
 * changes nothing, `maxEntries` drops the oldest. `calls` counts the round trips a run makes.
 */
export class DeduplicationStore implements IDataDeduplicator {
	readonly rows = new Map<string, string[]>();

	calls = 0;

	/** Round trips per scope: `node` (the node's record) and `workflow` (duplicate protection's lock). */
	readonly callsByScope = { node: 0, workflow: 0 };

	/** The values of every checkProcessedAndRecord call on the node's record, before n8n hashes them. */
	readonly recorded: string[][] = [];

	/** Makes every call fail (a database that is down). */
	failing = false;

	/**
	 * Makes the calls it returns true for fail (e.g. from the third claim on): each call's scope and,
	 * for checkProcessedAndRecord, the values before n8n hashes them.
	 */
	failWhen: (scope: 'node' | 'workflow', values?: string[]) => boolean = () => false;

	/**
	 * Makes the removeProcessed calls it returns true for fail (e.g. a probe's clean-up), given the
	 * values before n8n hashes them.
	 */
	failRemoveWhen: (scope: 'node' | 'workflow', values: string[]) => boolean = () => false;

	/** Makes the clearAllProcessedItems calls it returns true for fail (e.g. a lock's release). */
	failClearWhen: (scope: 'node' | 'workflow') => boolean = () => false;

	/**
	 * Store behaviours the lock does not expect, as another n8n release might have them (each must
	 * make the run stop loudly): `upsert`, a scope's second INSERT succeeds and overwrites the row;
	 * `wrappedDuplicateKey`, the primary key's error reaches the node wrapped without its code and
	 * message; `clearKeepsRow`, clearAllProcessedItems deletes nothing.
	 */
	upsert = false;

	wrappedDuplicateKey = false;

	clearKeepsRow = false;

	private key(scope: DeduplicationScope, { workflow, node }: ICheckProcessedContextData) {
		return `${String(workflow.id)}|${scope === 'node' ? `n:${node!.id}` : ''}`;
	}

	private static hash(value: DeduplicationItemTypes) {
		return createHash('md5').update(value.toString()).digest('base64');
	}

	private async read(key: string): Promise<string[] | undefined> {
		this.calls += 1;
		const scope = key.endsWith('|') ? 'workflow' : 'node';
		this.callsByScope[scope] += 1;
		if (this.failing || this.failWhen(scope)) throw new Error('SQLITE_BUSY: database is locked');
		await sleep(1);
		const row = this.rows.get(key);
		return row && [...row];
	}

	/** Called between a call's read and its write (tests pause or interleave there). */
	betweenReadAndWrite: (key: string) => Promise<void> = async () => await sleep(1);

	private async write(key: string, existed: boolean, hashes: string[]): Promise<void> {
		await this.betweenReadAndWrite(key);
		if (!existed) {
			if (this.rows.has(key) && this.wrappedDuplicateKey) {
				throw Object.assign(new Error('Could not save processed data'), {
					cause: new Error('duplicate key value violates unique constraint'),
				});
			}
			if (this.rows.has(key) && !this.upsert) {
				throw Object.assign(
					new Error('duplicate key value violates unique constraint "PK_processed_data"'),
					{ code: '23505' },
				);
			}
			this.rows.set(key, hashes);
		} else if (this.rows.has(key)) this.rows.set(key, hashes);
	}

	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options?: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		const key = this.key(scope, contextData);
		if (scope === 'node') this.recorded.push(items.map(String));
		for (const item of items.map(String)) {
			if (item.startsWith('w:')) this.tripwireHashes.add(DeduplicationStore.hash(item));
		}
		if (this.failWhen(scope === 'node' ? 'node' : 'workflow', items.map(String))) {
			this.calls += 1;
			throw new Error('SQLITE_BUSY: database is locked');
		}
		const existing = await this.read(key);
		const stored = existing ?? [];
		const known = new Set(stored);
		const output: IDeduplicationOutput = { new: [], processed: [] };
		for (const item of items) {
			const hash = DeduplicationStore.hash(item);
			if (known.has(hash)) output.processed.push(item);
			else {
				output.new.push(item);
				stored.push(hash);
			}
		}
		if (options?.maxEntries) stored.splice(0, stored.length - options.maxEntries);
		await this.write(key, existing !== undefined, stored);
		return output;
	}

	async removeProcessed(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
	): Promise<void> {
		const key = this.key(scope, contextData);
		const stored = await this.read(key);
		if (this.failRemoveWhen(scope === 'node' ? 'node' : 'workflow', items.map(String))) {
			throw new Error('SQLITE_BUSY: database is locked');
		}
		if (!stored) return;
		const removed = new Set(items.map((item) => DeduplicationStore.hash(item)));
		await this.write(
			key,
			true,
			stored.filter((hash) => !removed.has(hash)),
		);
	}

	async clearAllProcessedItems(
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
	): Promise<void> {
		this.calls += 1;
		this.callsByScope[scope === 'node' ? 'node' : 'workflow'] += 1;
		if (this.failing || this.failClearWhen(scope === 'node' ? 'node' : 'workflow')) {
			throw new Error('SQLITE_BUSY: database is locked');
		}
		if (!this.clearKeepsRow) this.rows.delete(this.key(scope, contextData));
	}

	async getProcessedDataCount(
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
	): Promise<number> {
		return (await this.read(this.key(scope, contextData)))?.length ?? 0;
	}

	/** A copy of what the database holds now (e.g. at the moment a worker is killed). */
	copy(): DeduplicationStore {
		const copy = new DeduplicationStore();
		for (const [key, hashes] of this.rows) copy.rows.set(key, [...hashes]);
		for (const hash of this.tripwireHashes) copy.tripwireHashes.add(hash);
		return copy;
	}

	/** The hashes of the tripwire's values (one a claim, `w:…`), left out of the counts below. */
	readonly tripwireHashes = new Set<string>();

	/** Every value stored, as n8n stores them (hashes only), the tripwire's left out. */
	storedValues(): string[] {
		return [...this.rows.keys()].flatMap((key) => this.valuesOf(key));
	}

	/** The values of one row (hashes), the tripwire's left out. */
	valuesOf(key: string): string[] {
		return (this.rows.get(key) ?? []).filter((hash) => !this.tripwireHashes.has(hash));
	}
}

let current = new DeduplicationStore();

/** The store n8n-core's DataDeduplicationService hands the node in this test process. */
const delegate: IDataDeduplicator = {
	checkProcessedAndRecord: async (items, scope, contextData, options) =>
		await current.checkProcessedAndRecord(items, scope, contextData, options),
	removeProcessed: async (items, scope, contextData) =>
		await current.removeProcessed(items, scope, contextData),
	clearAllProcessedItems: async (scope, contextData) =>
		await current.clearAllProcessedItems(scope, contextData),
	getProcessedDataCount: async (scope, contextData) =>
		await current.getProcessedDataCount(scope, contextData),
};

let installed: Promise<void> | undefined;

/** Installs `store` as n8n's deduplication store for the next run. */
export async function useDeduplicationStore(store: DeduplicationStore): Promise<void> {
	installed ??= DataDeduplicationService.init(delegate);
	await installed;
	current = store;
}
