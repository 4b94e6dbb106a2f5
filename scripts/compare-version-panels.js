#!/usr/bin/env node
'use strict';

// Compares the fields the editor shows, on one node version, between two description snapshots
// (scripts/description-snapshot.js), each evaluated by an n8n-workflow of choice: e.g. the baseline's
// description under today's n8n against the changed one under the oldest supported n8n's own
// displayParameter. Every resource and operation, each Check and each Mapping Mode. Prints each
// panel that differs and a summary; exits 1 when any differs.
// Usage: node scripts/compare-version-panels.js <version> <snapshot A> <n8n-workflow dir A>
//                                                   <snapshot B> <n8n-workflow dir B>

const fs = require('node:fs');
const path = require('node:path');

const [version, snapshotA, workflowA, snapshotB, workflowB] = process.argv.slice(2);
if (!workflowB) {
	console.error(
		'usage: compare-version-panels.js <version> <snapshot> <n8n-workflow dir> <snapshot> <n8n-workflow dir>',
	);
	process.exit(2);
}
const typeVersion = Number(version);

function side(snapshot, workflowDir) {
	const { description } = JSON.parse(fs.readFileSync(snapshot, 'utf8')).action;
	const { NodeHelpers } = require(path.resolve(workflowDir, 'dist/cjs/index.js'));
	const shown = (parameter, values) =>
		NodeHelpers.displayParameter(values, parameter, { typeVersion }, description, values);
	return { description, shown };
}

const a = side(snapshotA, workflowA);
const b = side(snapshotB, workflowB);

/** The option values of the shown selectors of this name. */
function options({ description, shown }, name, values) {
	return description.properties
		.filter((property) => property.name === name && shown(property, values))
		.flatMap((property) => property.options ?? [])
		.filter((option) => shown(option, values))
		.map(({ value }) => value);
}

/** The panels of side A: resource × operation × Check × Mapping Mode (the ones it shows). */
function panels() {
	const all = [];
	for (const resource of options(a, 'resource', {})) {
		for (const operation of options(a, 'operation', { resource })) {
			const checks = options(a, 'verificationName', { resource, operation });
			for (const verificationName of checks.length ? checks : [undefined]) {
				const values = { resource, operation, ...(verificationName ? { verificationName } : {}) };
				const modes = options(a, 'mappingMode', values);
				for (const mappingMode of modes.length ? modes : [undefined]) {
					all.push({ ...values, ...(mappingMode ? { mappingMode } : {}) });
				}
			}
		}
	}
	return all;
}

/** The shown fields, each as its name and everything but its display conditions. */
function fields({ description, shown }, values) {
	return description.properties
		.filter((property) => shown(property, values))
		.map(({ displayOptions, ...field }) => JSON.stringify(field));
}

let differing = 0;
const all = panels();
for (const values of all) {
	const fieldsA = fields(a, values);
	const fieldsB = fields(b, values);
	if (JSON.stringify(fieldsA) === JSON.stringify(fieldsB)) continue;
	differing += 1;
	console.log(`differs: ${JSON.stringify(values)}`);
}
const submit = all.filter((v) => v.resource === 'verification' && v.operation === 'submit');
console.log(
	`version ${typeVersion}: ${all.length} panels (${submit.length} of Verification → Submit), ${differing} differing`,
);
process.exit(differing ? 1 : 0);
