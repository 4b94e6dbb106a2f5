import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

/** The IDs of the newest rows, kept where n8n keeps them (see SentRecord.earlierResult). */
export const MAX_KEPT_IDS = 10_000;
const STATIC_DATA_KEY = 'candidateVerificationSentRows';

export interface AcceptedRow {
	identity: string;
	id?: string;
}

/** IDs this process saw accepted (manual executions save no static data): [sent at, ID]. */
const idsInProcess = new Map<string, string[]>();

export function keepNewest<T>(map: Map<string, T>, key: string, value: T): void {
	map.delete(key);
	map.set(key, value);
	while (map.size > MAX_KEPT_IDS) map.delete(map.keys().next().value as string);
}

/**
 * When rows were accepted and with which ID, kept beside the record (n8n's store keeps hashes
 * only): in this process, and in the workflow's static data. `processKey`: the workflow and node.
 */
export class KeptIds {
	constructor(
		private readonly context: IExecuteFunctions,
		private readonly processKey: string,
	) {}

	inProcess(identity: string): string[] | undefined {
		return idsInProcess.get(this.processKey + identity);
	}

	/** What the static data kept under `value` (a row's identity or a former one, migration.ts). */
	saved(value: string): unknown {
		return this.keptIds()?.[value];
	}

	/** A row accepted under a former identity alone: its kept ID (`saved`), under its own. */
	copy(identity: string, saved: unknown): void {
		this.keptIds(true)![identity] = saved as IDataObject[string];
	}

	keep(rows: AcceptedRow[]): void {
		if (rows.length === 0) return;
		const sentAt = new Date().toISOString();
		const kept = this.keptIds(true);
		for (const { identity, id } of rows) {
			const saved = id === undefined ? [sentAt] : [sentAt, id];
			keepNewest(idsInProcess, this.processKey + identity, saved);
			if (kept) {
				delete kept[identity];
				kept[identity] = saved;
			}
		}
		for (const key of Object.keys(kept ?? {}).slice(0, -MAX_KEPT_IDS)) delete kept![key];
	}

	/** Duplicate Protection → Forget All Rows Sent Before: the node's kept IDs. */
	forgetAll(): void {
		const kept = this.keptIds();
		if (kept) for (const key of Object.keys(kept)) delete kept[key];
		for (const key of idsInProcess.keys()) {
			if (key.startsWith(this.processKey)) idsInProcess.delete(key);
		}
	}

	/**
	 * The workflow's static data, per node ID (a rename keeps it): hash → [sent at, ID] for the
	 * newest MAX_KEPT_IDS rows. n8n saves it after production and retry executions only, whole, when
	 * the execution ends: a later execution sees it when it starts after that one ended. `toWrite`:
	 * the node’s section is made where it is missing (a read adds none).
	 */
	private keptIds(toWrite = false): IDataObject | undefined {
		const perNode = this.globalSection(STATIC_DATA_KEY, toWrite);
		const nodeId = this.context.getNode().id;
		if (perNode && toWrite) perNode[nodeId] ??= {};
		return perNode?.[nodeId] as IDataObject | undefined;
	}

	/** Undefined where the run has none. */
	staticData(type: 'global' | 'node'): Record<string, IDataObject> | undefined {
		try {
			return this.context.getWorkflowStaticData(type) as Record<string, IDataObject>;
		} catch {
			return undefined;
		}
	}

	/** A section of the workflow-wide static data; `toWrite`: made where it is missing. */
	globalSection(key: string, toWrite = false): IDataObject | undefined {
		const staticData = this.staticData('global');
		if (staticData && toWrite) staticData[key] ??= {};
		return staticData?.[key];
	}
}
