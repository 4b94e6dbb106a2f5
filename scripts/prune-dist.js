#!/usr/bin/env node
'use strict';

// After `n8n-node build`: keeps in dist/ only what n8n loads. The CLI copies every PNG and SVG of the
// repository into dist/, the README's pictures (docs/images/) included; those resolve from the
// repository, so they are removed here and never published. Kept: the compiled JavaScript and the
// codex files of nodes/ and credentials/, and the icons (icons/, or next to a node).
// Usage: node scripts/prune-dist.js [DIST]   (DIST defaults to the repository's dist/)

const fs = require('node:fs');
const path = require('node:path');

/** What n8n loads from a package's dist/, as paths relative to dist/. */
const LOADED = [
	/^(nodes|credentials)\/.+\.js$/,
	/^nodes\/.+\.node\.json$/,
	/^icons\/[^/]+\.(svg|png)$/,
	/^nodes\/.+\.(svg|png)$/,
];

const isLoaded = (relative) => LOADED.some((pattern) => pattern.test(relative));

/** Removes every file of dist that n8n does not load, then the folders left empty; returns the removed files. */
function pruneDist(dist) {
	const removed = [];
	const visit = (dir) => {
		for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
			const absolute = path.join(dir, entry.name);
			if (entry.isDirectory()) {
				visit(absolute);
				if (fs.readdirSync(absolute).length === 0) fs.rmdirSync(absolute);
				continue;
			}
			const relative = path.relative(dist, absolute).split(path.sep).join('/');
			if (!isLoaded(relative)) {
				fs.rmSync(absolute);
				removed.push(relative);
			}
		}
	};
	visit(dist);
	return removed;
}

module.exports = { pruneDist, isLoaded };

if (require.main === module) {
	const dist = path.resolve(process.argv[2] || path.join(__dirname, '..', 'dist'));
	const removed = pruneDist(dist);
	console.log(
		`dist/: ${removed.length} files n8n does not load removed${removed.length ? ` (${removed.join(', ')})` : ''}`,
	);
}
