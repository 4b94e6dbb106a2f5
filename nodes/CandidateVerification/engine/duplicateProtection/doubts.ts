import { sleep } from 'n8n-workflow';

import { keepNewest } from './keptIds';
import type { GateSetup } from './setup';

const FIRST_POLL_MS = 50;
const LONGEST_POLL_MS = 2000;
/** Rows whose answer this process saw lost: not waited for (nothing is in flight for them). */
const lostInProcess = new Map<string, true>();

/**
 * Doubt resolution for one run's gate: whether a row in doubt turned out accepted, once per row. A
 * row SENT by another execution without an answer yet may be on its way right now: it is waited for
 * (polling the record, all such rows of the run in one call) up to the node's wait, unless this
 * process saw its answer lost.
 */
export class DoubtResolution {
	private readonly doubts = new Map<string, Promise<boolean>>();

	/** Rows whose answer was waited for (the in-doubt message says how long). */
	readonly waitedFor = new Set<string>();

	/** Rows in doubt waited for: until when, and who is told whether the row was accepted. */
	private readonly waiting = new Map<string, { resolve(ok: boolean): void; deadline: number }>();

	private poller?: Promise<void>;

	constructor(private readonly setup: Pick<GateSetup, 'context' | 'record' | 'waitMs'>) {}

	async resolve(identity: string): Promise<boolean> {
		let doubt = this.doubts.get(identity);
		if (!doubt) {
			const { record, waitMs } = this.setup;
			// A key found before 0.5.0: nothing is on its way for this row, a person tells.
			const waits =
				waitMs > 0 &&
				!lostInProcess.has(this.processKey(identity)) &&
				!record.migration.heldByWider(identity);
			doubt = new Promise<boolean>((resolve) => {
				if (!waits) return resolve(false);
				this.waitedFor.add(identity);
				this.waiting.set(identity, { resolve, deadline: Date.now() + waitMs });
				this.poller ??= this.poll().finally(() => (this.poller = undefined));
			});
			this.doubts.set(identity, doubt);
		}
		return await doubt;
	}

	/** This run claimed the row: whatever this process saw lost of it before is history. */
	claimed(identity: string): void {
		lostInProcess.delete(this.processKey(identity));
	}

	/** This run sent the row and its answer was lost: later runs of this process do not wait for it. */
	answerLost(identity: string): void {
		keepNewest(lostInProcess, this.processKey(identity), true);
	}

	private processKey(identity: string): string {
		return `${String(this.setup.context.getWorkflow().id)}:${identity}`;
	}

	private async poll(): Promise<void> {
		let pause = FIRST_POLL_MS;
		while (this.waiting.size > 0) {
			const nextDeadline = Math.min(...[...this.waiting.values()].map(({ deadline }) => deadline));
			await sleep(Math.max(0, Math.min(pause, nextDeadline - Date.now())));
			pause = Math.min(pause * 2, LONGEST_POLL_MS);
			const identities = [...this.waiting.keys()];
			const accepted = await this.setup.record.acceptedSince(identities).catch(() => undefined);
			// A failing store ends the wait: every row waited for is in doubt.
			const now = accepted ? Date.now() : Number.POSITIVE_INFINITY;
			for (const identity of identities) {
				const { resolve, deadline } = this.waiting.get(identity)!;
				if (accepted?.has(identity) || deadline <= now) {
					resolve(accepted?.has(identity) === true);
					this.waiting.delete(identity);
				}
			}
		}
	}
}
