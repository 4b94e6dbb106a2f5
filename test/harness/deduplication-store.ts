import { createHash } from 'node:crypto';
import { DataDeduplicationService } from 'n8n-core';
import type {
	DeduplicationItemTypes,
	DeduplicationScope,
	ICheckProcessedContextData,
	IDataDeduplicator,
	IDeduplicationOutput,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

/**
 * n8n's deduplication store as n8n 2.41.1's DeduplicationHelper keeps it (one row per workflow and
 * context, an MD5 of each value, read and written whole with an await in between, no lock), in
 * memory. `calls` counts the round trips a run makes.
 */
export class DeduplicationStore implements IDataDeduplicator {
	readonly rows = new Map<string, string[]>();

	calls = 0;

	/** Makes every call fail (a database that is down). */
	failing = false;

	private key(scope: DeduplicationScope, { workflow, node }: ICheckProcessedContextData) {
		return `${String(workflow.id)}|${scope === 'node' ? `n:${node!.id}` : ''}`;
	}

	private static hash(value: DeduplicationItemTypes) {
		return createHash('md5').update(value.toString()).digest('base64');
	}

	private async read(key: string): Promise<string[] | undefined> {
		this.calls += 1;
		if (this.failing) throw new Error('SQLITE_BUSY: database is locked');
		await sleep(1);
		const row = this.rows.get(key);
		return row && [...row];
	}

	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
	): Promise<IDeduplicationOutput> {
		const key = this.key(scope, contextData);
		const stored = (await this.read(key)) ?? [];
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
		await sleep(1);
		this.rows.set(key, stored);
		return output;
	}

	async removeProcessed(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
	): Promise<void> {
		const key = this.key(scope, contextData);
		const stored = await this.read(key);
		if (!stored) return;
		const removed = new Set(items.map((item) => DeduplicationStore.hash(item)));
		await sleep(1);
		this.rows.set(
			key,
			stored.filter((hash) => !removed.has(hash)),
		);
	}

	async clearAllProcessedItems(
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
	): Promise<void> {
		this.calls += 1;
		this.rows.delete(this.key(scope, contextData));
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
		return copy;
	}

	/** Every value stored, as n8n stores them (hashes only). */
	storedValues(): string[] {
		return [...this.rows.values()].flat();
	}
}

let current = new DeduplicationStore();

/** The store n8n-core's DataDeduplicationService hands the node in this test process. */
const delegate: IDataDeduplicator = {
	checkProcessedAndRecord: async (items, scope, contextData) =>
		await current.checkProcessedAndRecord(items, scope, contextData),
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
