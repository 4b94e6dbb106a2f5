'use strict';

/**
 * What one call on a node's record in n8n's deduplication store costs at a given size: the steps n8n's
 * DeduplicationHelper takes for checkProcessedAndRecord (read the row, whose JSON the driver parses;
 * a Set of the stored hashes; 200 new MD5 hashes appended; the value stringified and written back),
 * done here with n8n's own database drivers (pg, sqlite3) on a table of the same shape. Not n8n's code:
 * its steps, timed one by one.
 *   node bench/record-call.js <n8n dir> <sqlite file> [postgres port password]
 */
const { createHash, randomBytes } = require('node:crypto');
const path = require('node:path');

const [n8nDir, sqliteFile, pgPort, pgPassword] = process.argv.slice(2);
const driver = (name) => require(path.join(n8nDir, 'node_modules', name));
const SIZES = [2_000, 20_000, 200_000];
const REPEATS = 10;
const md5 = (value) => createHash('md5').update(value).digest('base64');
const ms = (since) => Number(process.hrtime.bigint() - since) / 1e6;

async function measure(db, entries) {
	const data = Array.from({ length: entries }, () => md5(randomBytes(16)));
	await db.reset(JSON.stringify({ mode: 'entries', data }));
	const totals = { read: 0, node: 0, write: 0 };
	for (let repeat = 0; repeat < REPEATS; repeat++) {
		let started = process.hrtime.bigint();
		const value = await db.read();
		totals.read += ms(started);
		started = process.hrtime.bigint();
		const stored = new Set(value.data);
		for (let added = 0; added < 200; added++) {
			const hash = md5(randomBytes(16));
			if (!stored.has(hash)) value.data.push(hash);
		}
		value.data.splice(0, value.data.length - entries);
		const text = JSON.stringify(value);
		totals.node += ms(started);
		started = process.hrtime.bigint();
		await db.write(text);
		totals.write += ms(started);
	}
	const per = (total) => (total / REPEATS).toFixed(1);
	return `| ${db.name} | ${entries.toLocaleString('en')} (${(entries / 2).toLocaleString('en')} rows) | ${per(totals.read)} | ${per(totals.node)} | ${per(totals.write)} | **${per(totals.read + totals.node + totals.write)}** |`;
}

function sqlite() {
	const sqlite3 = driver('sqlite3');
	const db = new sqlite3.Database(sqliteFile);
	const run = (sql, params = []) =>
		new Promise((resolve, reject) =>
			db.run(sql, params, (error) => (error ? reject(error) : resolve())),
		);
	const get = (sql, params = []) =>
		new Promise((resolve, reject) =>
			db.get(sql, params, (error, row) => (error ? reject(error) : resolve(row))),
		);
	return {
		name: 'SQLite',
		async setUp() {
			await run('PRAGMA journal_mode = WAL');
			await run(
				'CREATE TABLE IF NOT EXISTS processed_data (workflowId varchar, context varchar, value text, PRIMARY KEY (workflowId, context))',
			);
		},
		async reset(value) {
			await run('DELETE FROM processed_data');
			await run('INSERT INTO processed_data VALUES (?, ?, ?)', ['w', 'n:node', value]);
		},
		// n8n's SQLite column is text: TypeORM parses the JSON in n8n's process.
		read: async () =>
			JSON.parse(
				(
					await get('SELECT * FROM processed_data WHERE workflowId = ? AND context = ?', [
						'w',
						'n:node',
					])
				).value,
			),
		write: async (value) =>
			await run('UPDATE processed_data SET value = ? WHERE workflowId = ? AND context = ?', [
				value,
				'w',
				'n:node',
			]),
		close: () => new Promise((resolve) => db.close(resolve)),
	};
}

function postgres() {
	const { Client } = driver('pg');
	const client = new Client({
		host: '127.0.0.1',
		port: Number(pgPort),
		user: 'n8n',
		password: pgPassword,
		database: 'n8n',
	});
	return {
		name: 'Postgres',
		async setUp() {
			await client.connect();
			await client.query(
				'CREATE TABLE IF NOT EXISTS processed_data ("workflowId" varchar, context varchar, value json, PRIMARY KEY ("workflowId", context))',
			);
		},
		async reset(value) {
			await client.query('DELETE FROM processed_data');
			await client.query('INSERT INTO processed_data VALUES ($1, $2, $3)', ['w', 'n:node', value]);
		},
		// n8n's Postgres column is json: the driver parses it.
		read: async () =>
			(
				await client.query(
					'SELECT * FROM processed_data WHERE "workflowId" = $1 AND context = $2',
					['w', 'n:node'],
				)
			).rows[0].value,
		write: async (value) =>
			await client.query(
				'UPDATE processed_data SET value = $1 WHERE "workflowId" = $2 AND context = $3',
				[value, 'w', 'n:node'],
			),
		close: async () => await client.end(),
	};
}

(async () => {
	console.log(
		'| Database | Values in the record | Read (and parse), ms | Set, 200 values added, stringify, ms | Write, ms | **One call, ms** |',
	);
	console.log('|---|---|---|---|---|---|');
	for (const db of [sqlite(), ...(pgPort ? [postgres()] : [])]) {
		await db.setUp();
		for (const entries of SIZES) console.log(await measure(db, entries));
		await db.close();
	}
})().catch((error) => {
	console.error(`record-call: ${error.message}`);
	process.exit(1);
});
