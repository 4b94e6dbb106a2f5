#!/usr/bin/env node
/**
 * The store contract duplicate protection's lock rests on, checked against a real n8n release's own
 * deduplication store (n8n's DeduplicationHelper, the class n8n hands every node through n8n-core's
 * DataDeduplicationService, which forwards calls and errors unchanged) on a throw-away SQLite
 * database. n8n-workflow does not promise these behaviours; a release that breaks one makes the
 * node's runs stop loudly (the tripwire, docs/duplicate-protection.md), and this check says which.
 *
 *   node scripts/store-contract.js <folder holding the release's node_modules>
 *
 * e.g. with the e2e cache (test/e2e/env.sh): $CV_E2E_CACHE/n8n-2.41.1. Run it with the Node that
 * release runs on (the e2e cache's Node 24). It reads the node's own unique-violation check from
 * dist/ (run `npm run build` first). Exit code 0: every behaviour holds; 1: one does not.
 */
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const release = path.resolve(process.argv[2] ?? process.env.CV_N8N_DIR ?? '');
const n8nDir = path.join(release, 'node_modules', 'n8n');
if (!fs.existsSync(path.join(n8nDir, 'package.json'))) {
	console.error(
		`usage: node scripts/store-contract.js <folder with node_modules/n8n> (got ${release})`,
	);
	process.exit(2);
}
const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-store-contract-'));
Object.assign(process.env, {
	N8N_USER_FOLDER: userFolder,
	DB_TYPE: 'sqlite',
	N8N_LOG_LEVEL: 'error',
});

// Some releases (1.123) keep packages the store needs (e.g. @sentry/node for @n8n/typeorm) inside
// n8n's own node_modules, where n8n itself finds them: make them resolvable from the store's modules.
process.env.NODE_PATH = [path.join(n8nDir, 'node_modules'), process.env.NODE_PATH]
	.filter(Boolean)
	.join(path.delimiter);
require('node:module').Module._initPaths();
const fromN8n = (id) => require(require.resolve(id, { paths: [n8nDir] }));
const { isUniqueViolation } = require(
	path.join(__dirname, '..', 'dist/nodes/CandidateVerification/engine/duplicateProtection/lock.js'),
);

const results = [];
function check(name, ok, detail) {
	results.push(ok);
	console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? `: ${detail}` : ''}`);
}

async function main() {
	const { version } = require(path.join(n8nDir, 'package.json'));
	const { Container } = fromN8n('@n8n/di');
	const db = fromN8n('@n8n/db');
	const connection = Container.get(db.DbConnection);
	await connection.init();
	await connection.migrate();
	const { DeduplicationHelper } = require(
		path.join(n8nDir, 'dist/deduplication/deduplication-helper.js'),
	);
	const store = new DeduplicationHelper();
	const rows = Container.get(db.ProcessedDataRepository);

	// processed_data references a workflow: one saved workflow holds every row of the check.
	const workflowId = 'storeContract01';
	await Container.get(db.WorkflowRepository).insert({
		id: workflowId,
		name: 'store contract',
		active: false,
		nodes: [],
		connections: {},
		settings: {},
		versionId: '00000000-0000-4000-8000-000000000000',
	});
	const workflow = { id: workflowId, active: false };
	const contextOf = (id) => ({ workflow, node: { id, name: id } });
	const entries = { mode: 'entries' };
	const rowOf = (id) => ({ workflowId, context: `n:${id}` });
	console.log(`n8n ${version}: its deduplication store on SQLite (${userFolder})`);

	// 1. Of two concurrent first calls on a scope, one creates the row; the other finds the value
	// recorded, or fails with an error the node recognises as the primary key's. Never both "new".
	const TRIES = 40;
	let bothNew = 0;
	let duplicateKeyErrors = 0;
	const unrecognised = [];
	for (let trial = 0; trial < TRIES; trial++) {
		const context = contextOf(`insert-${trial}`);
		const both = await Promise.allSettled(
			[0, 1].map(
				async () => await store.checkProcessedAndRecord(['lock'], 'node', context, entries),
			),
		);
		const fresh = both.filter((one) => one.status === 'fulfilled' && one.value.new.length === 1);
		if (fresh.length > 1) bothNew += 1;
		for (const one of both) {
			if (one.status !== 'rejected') continue;
			if (isUniqueViolation(one.reason)) duplicateKeyErrors += 1;
			else unrecognised.push(String(one.reason?.message ?? one.reason));
		}
	}
	check(
		'a concurrent second INSERT of a scope’s row fails (never an upsert)',
		bothNew === 0,
		`${TRIES} pairs: ${bothNew} with both "new", ${duplicateKeyErrors} duplicate-key errors the node recognises`,
	);
	check(
		'that failure reaches the node as a duplicate-key error it recognises',
		unrecognised.length === 0,
		unrecognised.length ? `not recognised: ${unrecognised[0]}` : undefined,
	);

	// 2. An UPDATE by key of a row deleted in between (a call that read it before the DELETE) does
	// not create it again: the helper's own update, as its checkProcessedAndRecord makes it.
	const later = contextOf('update-after-delete');
	await store.checkProcessedAndRecord(['lock', 'mark'], 'node', later, entries);
	const read = await rows.findOne({ where: rowOf('update-after-delete') });
	await store.clearAllProcessedItems('node', later, entries);
	read.value.data.push('another mark');
	await rows.update(rowOf('update-after-delete'), read);
	check(
		'an UPDATE by key never re-creates a deleted row',
		(await rows.findOne({ where: rowOf('update-after-delete') })) === null,
	);

	// 3. clearAllProcessedItems deletes the row.
	const cleared = contextOf('clear');
	await store.checkProcessedAndRecord(['lock', 'mark'], 'node', cleared, entries);
	await store.clearAllProcessedItems('node', cleared, entries);
	check(
		'clearAllProcessedItems deletes the row (DELETE, not a kept row)',
		(await rows.findOne({ where: rowOf('clear') })) === null &&
			(await store.getProcessedDataCount('node', cleared, entries)) === 0,
	);

	// 4. No cache: each call reads the database (a row deleted behind the store's back is gone for
	// it; a value added behind its back is there).
	const direct = contextOf('no-cache');
	await store.checkProcessedAndRecord(['lock'], 'node', direct, entries);
	await rows.delete(rowOf('no-cache'));
	const afterDelete = await store.checkProcessedAndRecord(['lock'], 'node', direct, entries);
	const row = await rows.findOne({ where: rowOf('no-cache') });
	row.value.data.push('added elsewhere');
	await rows.update(rowOf('no-cache'), row);
	const counted = await store.getProcessedDataCount('node', direct, entries);
	check(
		'no cache: every call reads the database',
		afterDelete.new.length === 1 && counted === 2,
		`after a DELETE elsewhere: ${afterDelete.new.length === 1 ? 'new' : 'still recorded'}; count after an UPDATE elsewhere: ${counted}`,
	);

	// 5. maxEntries drops the oldest values first, and a value recorded again keeps its place: History
	// Size and the mark that ends a version 1 node's 0.3.x lookups rest on it (FORMER_ROWS_MARK).
	const trimmed = contextOf('oldest-first');
	await store.checkProcessedAndRecord(['a', 'b', 'c'], 'node', trimmed, entries);
	await store.checkProcessedAndRecord(['a'], 'node', trimmed, entries);
	await store.checkProcessedAndRecord(['d', 'e'], 'node', trimmed, { ...entries, maxEntries: 3 });
	const kept = await store.checkProcessedAndRecord(
		['a', 'b', 'c', 'd', 'e'],
		'node',
		trimmed,
		entries,
	);
	check(
		'maxEntries drops the oldest values first; a value recorded again keeps its place',
		kept.processed.join() === 'c,d,e',
		`kept after recording a, b, c, then a again, then d, e with maxEntries 3: ${kept.processed.join(', ')}`,
	);

	await connection.close?.();
	fs.rmSync(userFolder, { recursive: true, force: true });
	return results.every(Boolean) ? 0 : 1;
}

main().then(
	(code) => process.exit(code),
	(caught) => {
		console.error(caught);
		process.exit(2);
	},
);
