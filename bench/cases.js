'use strict';

/**
 * What `npm run bench` measures. Every figure can be changed from the environment (comma lists),
 * `--quick` runs 1000 items once.
 *   BENCH_SIZES (1000,5000)       Create Profile item counts
 *   BENCH_SUBMIT_SIZES (1000,5000) Verification → Submit item counts
 *   BENCH_LATENCIES (0,20)        sandbox latency in ms
 *   BENCH_RUNS (3)                runs of each variant (interleaved)
 *   BENCH_RUNS_LARGE (1)          runs at 5000 items and more
 *   BENCH_FILE_MIB (300)          File → Download size (0 = skip); BENCH_FILE_RUNS (5)
 *   BENCH_UPLOAD_MIB (100)        File → Upload size (0 = skip); BENCH_UPLOAD_RUNS (3); this node only
 *   BENCH_PREFLIGHT_SIZE (1000)   items of the preflight case (0 = skip)
 *   BENCH_RAW_FETCH (1)           0 skips raw Node fetch of the same requests at the first latency
 *   BENCH_VARIANTS                which variants run (e.g. one alone under --cpu-prof), of VARIANTS
 *   BENCH_NODE_CONCURRENCY        this node's Max Concurrent Requests (unset: its default)
 *   BENCH_NODE_VERSION (1)        Create Profile's node version (2: new nodes'; 1 also runs 0.3.x)
 *   BENCH_FORMER_ROWS_GONE (0)    1: a version 1 node whose 0.3.x rows n8n has trimmed (its static
 *                                 data says so: no 0.3.x lookups); 0: one that may still hold them
 *   BENCH_WARM_UP_ITEMS (500)     items of each variant's warm-up run (not reported)
 *   BENCH_PROTECTION_SIZE (1000)  Create items of the duplicate protection cases (0 = skip): Map
 *                                 Automatically with the protection Off (every latency), and on with
 *                                 10,000 and 100,000 rows already recorded (first latency)
 * Variants: this node with Map Automatically ('node'), every field mapped by an expression
 * ('manual'), only name, gender and email mapped by expressions ('manual3', Create only); n8n's HTTP
 * Request node as this bench set it up first ('http': 4.2, the key as a plain header, the body built
 * by a JSON.stringify expression) and at its leanest ('lean': the latest version, a Header Auth
 * credential, the body `={{ $json }}` over items a Code node prepared; 'lean3' with the 3 fields).
 */
const VARIANTS = {
	create: ['node', 'manual', 'manual3', 'http', 'lean', 'lean3'],
	submit: ['node', 'manual', 'http', 'lean'],
};
/** Items of each variant's warm-up run (not reported): enough for V8 to optimise the hot paths. */
const WARM_UP_ITEMS = Number(process.env.BENCH_WARM_UP_ITEMS || 500);
/** Duplicate protection cases: Off, and on with this many rows recorded before each run. */
const PROTECTION_VARIANTS = ['protectionOff', 'recorded10000', 'recorded100000'];
const recordedRows = (variant) => Number(/^recorded(\d+)$/.exec(variant)?.[1] ?? 0);

const list = (value, fallback) =>
	(value ?? fallback)
		.split(',')
		.map((v) => v.trim())
		.filter(Boolean)
		.map(Number);

function benchConfig(argv = process.argv, env = process.env) {
	const quick = argv.includes('--quick') || env.BENCH_QUICK === '1';
	return {
		quick,
		sizes: list(env.BENCH_SIZES, quick ? '1000' : '1000,5000'),
		submitSizes: list(env.BENCH_SUBMIT_SIZES, quick ? '1000' : '1000,5000'),
		latencies: list(env.BENCH_LATENCIES, '0,20'),
		runs: Number(env.BENCH_RUNS || (quick ? 1 : 3)),
		runsLarge: Number(env.BENCH_RUNS_LARGE || 1),
		fileMiB: Number(env.BENCH_FILE_MIB ?? 300),
		fileRuns: Number(env.BENCH_FILE_RUNS || (quick ? 1 : 5)),
		uploadMiB: Number(env.BENCH_UPLOAD_MIB ?? 100),
		uploadRuns: Number(env.BENCH_UPLOAD_RUNS || (quick ? 1 : 3)),
		preflightSize: Number(env.BENCH_PREFLIGHT_SIZE ?? 1000),
		rawFetch: env.BENCH_RAW_FETCH !== '0',
		nodeConcurrency: Number(env.BENCH_NODE_CONCURRENCY) || undefined,
		protectionSize: Number(env.BENCH_PROTECTION_SIZE ?? 1000),
		variants: (env.BENCH_VARIANTS ?? [...VARIANTS.create, ...PROTECTION_VARIANTS].join(','))
			.split(',')
			.map((v) => v.trim()),
	};
}

/** [{ op, variant, latencyMs, count, runs }], every variant of each case. */
function benchCases(config) {
	const cases = [];
	const all = (op, latencyMs, count, runs) => {
		for (const variant of VARIANTS[op]) cases.push({ op, variant, latencyMs, count, runs });
	};
	const both = (op, latencyMs, count, runs) => {
		for (const variant of ['node', 'http']) cases.push({ op, variant, latencyMs, count, runs });
	};
	const runsFor = (count) =>
		count >= 5000 ? Math.min(config.runs, config.runsLarge) : config.runs;
	for (const latencyMs of config.latencies) {
		for (const count of config.sizes) all('create', latencyMs, count, runsFor(count));
		for (const count of config.submitSizes) all('submit', latencyMs, count, runsFor(count));
	}
	if (config.protectionSize > 0) {
		const count = config.protectionSize;
		const runs = runsFor(count);
		// The protection on (the default) is the 'node' variant of the same count.
		const variants = config.sizes.includes(count) ? ['protectionOff'] : ['node', 'protectionOff'];
		for (const latencyMs of config.latencies) {
			for (const variant of variants) cases.push({ op: 'create', variant, latencyMs, count, runs });
		}
		for (const latencyMs of config.latencies) {
			for (const variant of PROTECTION_VARIANTS.slice(1)) {
				cases.push({ op: 'create', variant, latencyMs, count, runs });
			}
		}
	}
	// Warm-up (n8n loads node types and compiles on first use): a few items of each variant, not reported.
	// The protection's variants too: each is its own workflow, and a first run of one is slower.
	const warmedUp =
		config.protectionSize > 0 ? [...VARIANTS.create, ...PROTECTION_VARIANTS] : VARIANTS.create;
	for (const variant of warmedUp)
		cases.push({
			op: 'create',
			variant,
			latencyMs: config.latencies[0],
			count: WARM_UP_ITEMS,
			runs: 0,
		});
	if (config.fileMiB > 0) {
		// The first download of a run pays n8n's binary store's first use: one of each, not reported.
		for (const variant of ['node', 'http'])
			cases.push({ op: 'download', variant, latencyMs: config.latencies[0], count: 1, runs: 0 });
		both('download', config.latencies[0], 1, config.fileRuns);
	}
	if (config.uploadMiB > 0) {
		cases.push({
			op: 'upload',
			variant: 'node',
			latencyMs: config.latencies[0],
			count: 1,
			runs: config.uploadRuns,
		});
	}
	if (config.preflightSize > 0) {
		cases.push({
			op: 'preflight',
			variant: 'node',
			latencyMs: config.latencies[0],
			count: config.preflightSize,
			runs: 1,
		});
	}
	return cases;
}

/** The cases of the variants asked for; the warm-up of each variant that runs. */
function selectedCases(config) {
	return benchCases(config).filter((c) => config.variants.includes(c.variant));
}

module.exports = { benchConfig, benchCases: selectedCases, WARM_UP_ITEMS, VARIANTS, recordedRows };
