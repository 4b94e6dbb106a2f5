/**
 * A module's timings (`lockTiming`, `lookupTiming`) in one test file: `shortened` set before each
 * test (where the tries are what is tested, not the real waits), and the values in use put back after
 * each, also after a test that set its own. Returns the values in use.
 */
export function timingsForEachTest<T extends object>(timing: T, shortened: Partial<T> = {}): T {
	const inUse = structuredClone(timing);
	beforeEach(() => Object.assign(timing, structuredClone(shortened)));
	afterEach(() => Object.assign(timing, structuredClone(inUse)));
	return inUse;
}
