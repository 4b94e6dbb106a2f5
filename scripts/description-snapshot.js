#!/usr/bin/env node
'use strict';

// Prints, as stable JSON, what n8n reads from the built package: the action node's description (each
// version when the node is versioned), the trigger's description, the credential's fields, and the
// names of their methods. Two builds whose outputs are identical show users the same nodes; a
// refactor's proof is an empty diff of this output on the build before and after.
// Usage: node scripts/description-snapshot.js [DIST]   (DIST defaults to the repository's dist/)

const path = require('node:path');

const dist = path.resolve(process.argv[2] || path.join(__dirname, '..', 'dist'));

/** A plain copy with keys sorted and functions replaced by their name, so the output is stable. */
function stable(value, seen = new WeakSet()) {
	if (typeof value === 'function') return `[Function ${value.name || 'anonymous'}]`;
	if (value === null || typeof value !== 'object') return value;
	if (seen.has(value)) return '[Circular]';
	seen.add(value);
	let copy;
	if (Array.isArray(value)) copy = value.map((entry) => stable(entry, seen));
	else {
		copy = {};
		for (const key of Object.keys(value).sort()) copy[key] = stable(value[key], seen);
	}
	seen.delete(value);
	return copy;
}

/** The names of a node's methods by group (listSearch, loadOptions, …), never their code. */
function methodNames(methods) {
	if (!methods) return undefined;
	const names = {};
	for (const group of Object.keys(methods).sort()) names[group] = Object.keys(methods[group]).sort();
	return names;
}

function nodeSnapshot(NodeClass) {
	const node = new NodeClass();
	const snapshot = { description: stable(node.description), methods: methodNames(node.methods) };
	if (node.nodeVersions) {
		snapshot.nodeVersions = {};
		for (const version of Object.keys(node.nodeVersions).sort()) {
			const versioned = node.nodeVersions[version];
			snapshot.nodeVersions[version] = {
				description: stable(versioned.description),
				methods: methodNames(versioned.methods),
			};
		}
	}
	return snapshot;
}

const load = (relative, name) => require(path.join(dist, relative))[name];

const CandidateVerification = load(
	'nodes/CandidateVerification/CandidateVerification.node.js',
	'CandidateVerification',
);
const CandidateVerificationTrigger = load(
	'nodes/CandidateVerificationTrigger/CandidateVerificationTrigger.node.js',
	'CandidateVerificationTrigger',
);
const CandidateVerificationApi = load(
	'credentials/CandidateVerificationApi.credentials.js',
	'CandidateVerificationApi',
);

const snapshot = {
	action: nodeSnapshot(CandidateVerification),
	trigger: nodeSnapshot(CandidateVerificationTrigger),
	credential: stable(new CandidateVerificationApi()),
};

process.stdout.write(`${JSON.stringify(snapshot, null, '\t')}\n`);
