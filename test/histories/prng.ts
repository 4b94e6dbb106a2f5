/**
 * mulberry32: a small seeded PRNG (no dependency), so that a seed replays its history exactly.
 * Every random choice of a history (its steps, the service's answer to each request) comes from one.
 */
export class Prng {
	private state: number;

	constructor(seed: number) {
		this.state = seed >>> 0;
	}

	/** A float in [0, 1). */
	next(): number {
		this.state = (this.state + 0x6d2b79f5) >>> 0;
		let t = this.state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	}

	/** An integer in [min, max]. */
	int(min: number, max: number): number {
		return min + Math.floor(this.next() * (max - min + 1));
	}

	pick<T>(values: readonly T[]): T {
		return values[this.int(0, values.length - 1)];
	}

	/** true with probability `p`. */
	chance(p: number): boolean {
		return this.next() < p;
	}

	/** One of `weights`' keys, each with its weight's share. */
	weighted<K extends string>(weights: Record<K, number>): K {
		const entries = Object.entries(weights) as Array<[K, number]>;
		let roll = this.next() * entries.reduce((sum, [, weight]) => sum + weight, 0);
		for (const [key, weight] of entries) {
			roll -= weight;
			if (roll < 0) return key;
		}
		return entries[entries.length - 1][0];
	}

	/** A random subset of `values` in a random order (possibly empty when `allowEmpty`). */
	subsetInRandomOrder<T>(values: readonly T[], allowEmpty = false): T[] {
		const shuffled = [...values];
		for (let index = shuffled.length - 1; index > 0; index -= 1) {
			const other = this.int(0, index);
			[shuffled[index], shuffled[other]] = [shuffled[other], shuffled[index]];
		}
		return shuffled.slice(0, this.int(allowEmpty ? 0 : 1, shuffled.length));
	}
}
