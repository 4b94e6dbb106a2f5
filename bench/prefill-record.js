'use strict';

/**
 * Fills a node's record in n8n's deduplication store (the `processed_data` table) with N hashes, as
 * if the node had already sent N rows, so the bench can measure what duplicate protection costs at
 * that size. Run on n8n's Node 24 with n8n's own database driver (sqlite3 or pg), while n8n runs:
 *   node bench/prefill-record.js <n8n dir> <workflow ID> <node ID> <rows>
 * The database is n8n's, from its environment (DB_TYPE, N8N_USER_FOLDER or DB_POSTGRESDB_*).
 * Benchmark only: the package never touches n8n's tables.
 */
const { createHash, randomBytes } = require('node:crypto');
const path = require('node:path');

const [n8nDir, workflowId, nodeId, rows] = process.argv.slice(2);
const driver = (name) => require(path.join(n8nDir, 'node_modules', name));
const context = `n:${nodeId}`;
const md5 = (value) => createHash('md5').update(value).digest('base64');
// Two values per row (sent, then accepted), MD5 in base64 as n8n stores them, and the mark 0.3.1 keeps
// in a record after its first run (nobody waits for a row: a297338's record.ts, NO_WAITERS).
const hashes = [
	md5('n:no-waiters'),
	...Array.from({ length: 2 * Number(rows) }, () => md5(randomBytes(16))),
];
const value = JSON.stringify({ mode: 'entries', data: hashes });
// BENCH_FORMER_ROWS_GONE=1: the workflow's static data is set to say n8n has trimmed the node's 0.3.x
// rows and its lookups' values (engine/duplicateProtection/migration.ts, the 0.3.x entry);
// otherwise it is left as it is.
const formerRowsGone = process.env.BENCH_FORMER_ROWS_GONE === '1';
const staticData = JSON.stringify({
	global: { candidateVerificationFormerRows: { [nodeId]: { phasesEnded: 2, markSeen: false } } },
});
const now = new Date().toISOString().replace('T', ' ').replace('Z', '');

async function postgres() {
	const { Client } = driver('pg');
	const client = new Client({
		host: process.env.DB_POSTGRESDB_HOST,
		port: Number(process.env.DB_POSTGRESDB_PORT),
		database: process.env.DB_POSTGRESDB_DATABASE,
		user: process.env.DB_POSTGRESDB_USER,
		password: process.env.DB_POSTGRESDB_PASSWORD,
	});
	await client.connect();
	await client.query('DELETE FROM processed_data WHERE "workflowId" = $1 AND context = $2', [
		workflowId,
		context,
	]);
	await client.query(
		'INSERT INTO processed_data ("workflowId", context, value, "createdAt", "updatedAt") VALUES ($1, $2, $3, $4, $4)',
		[workflowId, context, value, now],
	);
	if (formerRowsGone) {
		await client.query('UPDATE workflow_entity SET "staticData" = $1 WHERE id = $2', [
			staticData,
			workflowId,
		]);
	}
	await client.end();
}

function sqlite() {
	const sqlite3 = driver('sqlite3');
	const file = path.join(process.env.N8N_USER_FOLDER, '.n8n', 'database.sqlite');
	const db = new sqlite3.Database(file);
	const run = (sql, params) =>
		new Promise((resolve, reject) =>
			db.run(sql, params, (error) => (error ? reject(error) : resolve())),
		);
	return (async () => {
		await run('PRAGMA busy_timeout = 10000', []);
		await run('DELETE FROM processed_data WHERE workflowId = ? AND context = ?', [
			workflowId,
			context,
		]);
		await run(
			'INSERT INTO processed_data (workflowId, context, value, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?)',
			[workflowId, context, value, now, now],
		);
		if (formerRowsGone) {
			await run('UPDATE workflow_entity SET staticData = ? WHERE id = ?', [staticData, workflowId]);
		}
		await new Promise((resolve) => db.close(resolve));
	})();
}

(process.env.DB_TYPE === 'postgresdb' ? postgres() : sqlite()).catch((error) => {
	console.error(`prefill-record: ${error.message}`);
	process.exit(1);
});
