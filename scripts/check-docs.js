#!/usr/bin/env node
'use strict';

// The documentation's links, checked in `npm test` (test/run-all.sh):
// - every relative link and image of README.md and docs/*.md points at a file or folder that exists;
// - every heading anchor linked to (`#anchor`, `page.md#anchor`) exists, with GitHub's slug rules
//   (lower case, punctuation dropped, spaces to hyphens, a repeated heading gets -1, -2, ...);
// - the README's two developer commands (its first code block that shows either) are the ones `.ci/run`
//   and package.json run (`npm run demo` is a script; `.ci/run` runs `npm ci && npm test`), and their
//   section links docs/development.md;
// - every picture under docs/images/ is a PNG under 200 KB that a page shows;
// - the in-product "Docs" links (the codex files' URLs, the credential's documentationUrl) point at
//   a page of this repository (package.json's homepage) and at an anchor that page has;
// - duplicate protection's promises (docs/duplicate-protection.md#promises) and rules are each one
//   sentence, at most ten promises, numbered as their anchors; a link to a promise names its number; no
//   sentence of a page and no string of nodes/ or credentials/ restates one in other words (half its
//   word triples, not quoted word for word); the send-again rule is what the code's sendAgainCondition
//   builds.
// Usage: node scripts/check-docs.js [ROOT]      (ROOT defaults to the repository)
//        node scripts/check-docs.js --self-test (proves it fails on broken fixtures, in a temp folder)
// Prints `ok - ...` / `FAIL - ...` per check, then `N passed, N failed`; exits non-zero on a failure.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const IMAGE_LIMIT = 200 * 1024;
const COMMANDS = ['npm run demo', 'npm ci && npm test'];

/** GitHub's heading slug (github-slugger): lower case, punctuation removed, spaces to hyphens. */
function slug(text) {
	return text
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
		.replace(/ /g, '-');
}

/** The text GitHub makes an anchor of: inline markup removed, link text kept. */
function headingText(raw) {
	return raw
		.replace(/\s+#+\s*$/, '')
		.replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/<[^>]+>/g, '')
		.replace(/`([^`]*)`/g, '$1')
		.replace(/(\*\*|__)(.*?)\1/g, '$2')
		.replace(/(\*|_)(.*?)\1/g, '$2');
}

/** The page's lines, fenced code blocks blanked out, and inline code too unless keepInlineCode. */
function proseLines(text, { keepInlineCode = false } = {}) {
	const lines = [];
	let fence = null;
	for (const line of text.split('\n')) {
		const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
		if (marker) {
			if (!fence) fence = marker[1][0];
			else if (marker[1][0] === fence) fence = null;
			lines.push('');
			continue;
		}
		if (fence) lines.push('');
		else
			lines.push(
				keepInlineCode ? line : line.replace(/(`+)[^`]*?\1/g, (code) => ' '.repeat(code.length)),
			);
	}
	return lines;
}

/** Every anchor a page offers: its headings' slugs (repeats numbered) and explicit HTML ids. */
function anchorsOf(text) {
	const anchors = new Set();
	const seen = new Map();
	const lines = proseLines(text, { keepInlineCode: true });
	lines.forEach((line, index) => {
		let heading = /^\s{0,3}#{1,6}\s+(.*)$/.exec(line)?.[1];
		// Setext headings: a line underlined with === or ---.
		if (
			!heading &&
			/^\s{0,3}(=+|-+)\s*$/.test(lines[index + 1] ?? '') &&
			line.trim() &&
			!/^\s*[-*|]/.test(line)
		) {
			heading = line;
		}
		if (heading !== undefined) {
			const base = slug(headingText(heading));
			const count = seen.get(base) ?? 0;
			seen.set(base, count + 1);
			anchors.add(count === 0 ? base : `${base}-${count}`);
		}
		for (const match of line.matchAll(/<a\s+(?:[^>]*\s)?(?:id|name)="([^"]+)"/g))
			anchors.add(match[1]);
	});
	return anchors;
}

/** Links and images of a page: { kind, target, line }. */
function linksOf(text) {
	const links = [];
	const definitions = new Map();
	proseLines(text).forEach((line, index) => {
		const at = index + 1;
		const definition = /^\s{0,3}\[([^\]]+)\]:\s*<?(\S+?)>?(\s.*)?$/.exec(line);
		if (definition) {
			definitions.set(definition[1].toLowerCase(), definition[2]);
			links.push({ kind: 'link', target: definition[2], line: at });
			return;
		}
		for (const match of line.matchAll(
			/(!?)\[((?:[^\]\\]|\\.)*)\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g,
		)) {
			links.push({ kind: match[1] ? 'image' : 'link', target: match[3], line: at });
		}
		for (const match of line.matchAll(/<img\s[^>]*src="([^"]+)"/g)) {
			links.push({ kind: 'image', target: match[1], line: at });
		}
		for (const match of line.matchAll(/<a\s[^>]*href="([^"]+)"/g)) {
			links.push({ kind: 'link', target: match[1], line: at });
		}
	});
	return links;
}

const isExternal = (target) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

/** The markdown pages checked: README.md and docs/*.md. */
function pagesOf(root) {
	const docs = path.join(root, 'docs');
	const pages = ['README.md', 'CONTRIBUTING.md'];
	if (fs.existsSync(docs)) {
		pages.push(
			...fs
				.readdirSync(docs)
				.filter((name) => name.endsWith('.md'))
				.sort()
				.map((name) => `docs/${name}`),
		);
	}
	return pages.filter((page) => fs.existsSync(path.join(root, page)));
}

function linkProblems(root, page, anchorCache) {
	const file = path.join(root, page);
	const text = fs.readFileSync(file, 'utf8');
	const anchors = (target) => {
		if (!anchorCache.has(target))
			anchorCache.set(target, anchorsOf(fs.readFileSync(target, 'utf8')));
		return anchorCache.get(target);
	};
	const problems = [];
	const counts = { links: 0, images: 0, anchors: 0 };
	for (const { kind, target, line } of linksOf(text)) {
		if (!target || isExternal(target)) continue;
		counts[kind === 'image' ? 'images' : 'links'] += 1;
		const [pathPart, anchor] = target.split('#', 2);
		const resolved = pathPart
			? path.resolve(path.dirname(file), decodeURIComponent(pathPart.split('?')[0]))
			: file;
		if (!resolved.startsWith(path.resolve(root))) {
			problems.push(`${page}:${line}: ${kind} ${target} leaves the repository`);
			continue;
		}
		if (!fs.existsSync(resolved)) {
			problems.push(`${page}:${line}: ${kind} ${target}: no such file`);
			continue;
		}
		if (anchor !== undefined) {
			counts.anchors += 1;
			if (!resolved.endsWith('.md') || fs.statSync(resolved).isDirectory()) continue;
			if (!anchors(resolved).has(anchor)) {
				problems.push(
					`${page}:${line}: ${target}: no heading with the anchor #${anchor} in ${path.relative(root, resolved)}`,
				);
			}
		}
	}
	return { problems, counts };
}

function commandProblems(root) {
	const problems = [];
	const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
	// The commands are the lines of the README's first code block that shows one of them (users read the
	// README first: what the nodes do and how to install them, then the developers' commands).
	const commandLines = (block) =>
		block
			.split('\n')
			.map((line) => line.replace(/\s+#.*$/, '').trim())
			.filter(Boolean);
	const block = [...readme.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].find((match) =>
		commandLines(match[1]).some((line) => COMMANDS.includes(line)),
	);
	const shown = block ? commandLines(block[1]) : [];
	if (JSON.stringify(shown) !== JSON.stringify(COMMANDS)) {
		problems.push(
			`the README's code block of the developer commands shows ${JSON.stringify(shown)}, expected ${JSON.stringify(COMMANDS)}`,
		);
	}
	// Its section (from the heading before it to the next) links docs/development.md.
	const at = block ? block.index : 0;
	const start = readme.lastIndexOf('\n## ', at);
	const end = readme.indexOf('\n## ', at);
	const section = readme.slice(start < 0 ? 0 : start, end < 0 ? readme.length : end);
	if (!/\]\(docs\/development\.md(#[^)]*)?\)/.test(section)) {
		problems.push(
			"the README does not link docs/development.md in the developer commands' section",
		);
	}
	const ciFile = path.join(root, '.ci/run');
	const ci = fs.existsSync(ciFile) ? fs.readFileSync(ciFile, 'utf8') : '';
	if (!ci.split('\n').some((line) => line.trim() === 'npm ci && npm test')) {
		problems.push('.ci/run does not run "npm ci && npm test"');
	}
	const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
	for (const script of ['demo', 'test']) {
		if (!pkg.scripts?.[script]) problems.push(`package.json has no "${script}" script`);
	}
	return problems;
}

function imageProblems(root, pages) {
	const dir = path.join(root, 'docs/images');
	if (!fs.existsSync(dir)) return { problems: [], count: 0 };
	const text = pages.map((page) => fs.readFileSync(path.join(root, page), 'utf8')).join('\n');
	const problems = [];
	const files = fs.readdirSync(dir).filter((name) => !name.startsWith('.'));
	for (const name of files) {
		const file = path.join(dir, name);
		const bytes = fs.readFileSync(file);
		if (!name.endsWith('.png') || bytes.subarray(1, 4).toString() !== 'PNG')
			problems.push(`docs/images/${name} is not a PNG`);
		if (bytes.length >= IMAGE_LIMIT)
			problems.push(`docs/images/${name} has ${Math.round(bytes.length / 1024)} KB (limit 200 KB)`);
		if (!text.includes(`images/${name}`)) problems.push(`docs/images/${name} is shown by no page`);
	}
	return { problems, count: files.length };
}

/** Files under `dir` (relative to root) whose names end with `suffix`, recursively. */
function filesEndingWith(root, dir, suffix) {
	const start = path.join(root, dir);
	if (!fs.existsSync(start)) return [];
	return fs
		.readdirSync(start, { recursive: true })
		.filter((name) => name.endsWith(suffix))
		.sort()
		.map((name) => path.join(dir, name));
}

/** The URLs n8n's editor opens from a node's or credential's "Docs" link: { file, url }. */
function productDocsUrls(root) {
	const urls = [];
	for (const file of filesEndingWith(root, 'nodes', '.node.json')) {
		const codex = JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));
		for (const links of Object.values(codex.resources ?? {})) {
			for (const link of links) urls.push({ file, url: link.url });
		}
	}
	for (const file of filesEndingWith(root, 'credentials', '.credentials.ts')) {
		const source = fs.readFileSync(path.join(root, file), 'utf8');
		for (const match of source.matchAll(/documentationUrl\s*=\s*['"`]([^'"`]+)['"`]/g))
			urls.push({ file, url: match[1] });
	}
	return urls;
}

/**
 * The repository's page a URL names: the homepage itself is the README, `/blob/<ref>/<path>`
 * a file of the repository.
 */
function repositoryPage(repository, url) {
	const [address, anchor] = url.split('#', 2);
	if (address === repository) return { page: 'README.md', anchor };
	const file = new RegExp(
		`^${repository.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/blob/[^/]+/(.+)$`,
	).exec(address);
	return file ? { page: decodeURIComponent(file[1]), anchor } : undefined;
}

function productDocsProblems(root, anchorCache) {
	const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
	const repository = String(pkg.homepage ?? '').replace(/#.*$/, '');
	const urls = productDocsUrls(root);
	const problems = [];
	for (const { file, url } of urls) {
		const target = repository ? repositoryPage(repository, url) : undefined;
		if (!target) {
			problems.push(
				`${file}: ${url} is not a page of ${repository || 'the package (no homepage in package.json)'}`,
			);
			continue;
		}
		const resolved = path.join(root, target.page);
		if (!fs.existsSync(resolved)) {
			problems.push(`${file}: ${url}: no such file ${target.page}`);
			continue;
		}
		if (!anchorCache.has(resolved))
			anchorCache.set(resolved, anchorsOf(fs.readFileSync(resolved, 'utf8')));
		if (target.anchor !== undefined && !anchorCache.get(resolved).has(target.anchor)) {
			problems.push(
				`${file}: ${url}: no heading with the anchor #${target.anchor} in ${target.page}`,
			);
		}
	}
	return { problems, count: urls.length };
}


// ---- measured figures: each names its source ------------------------------------------------------

/**
 * A measured figure: a number (or range) with a unit of time, ratio, share, size or rate. Versions,
 * counts without a unit and figures inside code are not figures.
 */
const FIGURE =
	/(?<![\w.])(\d+(?:[.,]\d+)*(?:\s?[–-]\s?\d+(?:[.,]\d+)*)?)(?:×|\s×(?!\s?[A-Za-z])|\s?(ms|s|seconds?|min|minutes?|h|hours?|%|[KMG]i?B|[KMG]B\/s|\/s|requests? per second)(?![\w]))/g;
/**
 * Words that make a figure a setting, a default, a limit or a target rather than a measurement
 * (looked for in the 48 characters before the figure and the 24 after it).
 */
const NOT_MEASURED =
	/\b(defaults?|default of|was|timeout|time-?out|limit|at most|up to|no more than|max(imum)?|min(imum)?|every|after|expires?|expiry|target|under|above|below|over|within|waits?|retries|retry|e\.g\.|set|raise|lower|per turn|slice|option|sleeps?|deadline|older than|valid for|open for|latency|latencies|pauses?)\b|[≤≥<>]/i;
/** What a figure's paragraph must name: a results file or a test that measured it. */
const SOURCE = /bench\/results\/[\w./-]+|test\/[\w./-]+\.(?:[jt]s|sh|md|json)|compatibility\.md|\(measured by [^)]+\)/;

/** The figures of a page with no source in their paragraph (a block between blank lines; a table is one). */
function figureProblems(root, page) {
	const text = fs.readFileSync(path.join(root, page), 'utf8');
	const lines = proseLines(text);
	const raw = text.split('\n');
	const problems = [];
	let start = 0;
	const blocks = [];
	for (let i = 0; i <= lines.length; i += 1) {
		if (i === lines.length || lines[i].trim() === '') {
			if (i > start) blocks.push([start, i]);
			start = i + 1;
		}
	}
	let count = 0;
	const named = (block) => block && SOURCE.test(raw.slice(block[0], block[1]).join('\n'));
	blocks.forEach(([from, to], index) => {
		// The source may be in inline code or a link of the paragraph, so read the raw lines for it; a
		// table's source may be in the paragraph just before or after it (its caption).
		const table = /^\s*\|/.test(lines[from]);
		const sourced = named([from, to]) || (table && (named(blocks[index - 1]) || named(blocks[index + 1])));
		for (let i = from; i < to; i += 1) {
			if (/^\s{0,3}#/.test(lines[i])) continue;
			for (const match of lines[i].matchAll(FIGURE)) {
				// A paragraph's line break is a space: the words before a figure may end the line above.
				const before = `${i > from ? lines[i - 1] : ''} ${lines[i].slice(0, match.index)}`.slice(-48);
				const after = lines[i].slice(match.index + match[0].length, match.index + match[0].length + 24);
				if (NOT_MEASURED.test(before) || NOT_MEASURED.test(after)) continue;
				// The size of what a run moves (a 100 MiB file, downloads 300 MiB) is an input, not a result.
				if (/[KMG]i?B$/.test(match[0]) && (/(down|up)loads?( of)?( a)?\s*$/i.test(before) || /^\s*(file|PDF)/i.test(after)))
					continue;
				count += 1;
				if (!sourced) problems.push(`${page}:${i + 1}: "${match[0]}" has no source in its paragraph (a bench/results/ file or a test)`);
			}
		}
	});
	return { problems, count };
}

// ---- the promises and rules: each stated once, every other sentence links to it ------------------

/** The page that states the promises (a numbered list under `## Promises`) and the rules. */
const PROMISES_PAGE = 'docs/duplicate-protection.md';
const MAX_PROMISES = 10;
/** The builder of the errors' and descriptions' "may be sent again" condition, and its wait. */
const SEND_AGAIN_SOURCE = 'nodes/CandidateVerification/engine/duplicateProtection/fields.ts';
/**
 * A sentence restates a statement when at least this share of the shorter one's word triples is in
 * the other (and it does not quote the statement verbatim); below MIN_TRIPLES triples it is too short
 * to tell.
 */
const RESTATED_SHARE = 0.5;
const MIN_TRIPLES = 8;

/** A markdown text as read: anchors, markup and link targets dropped, spaces collapsed. */
function plainText(markdown) {
	return markdown
		.replace(/<a\s[^>]*><\/a>/g, '')
		.replace(/!?\[((?:[^\]\\]|\\.)*)\]\([^)]*\)/g, '$1')
		.replace(/`([^`]*)`/g, '$1')
		.replace(/(\*\*|__)(.*?)\1/g, '$2')
		.replace(/\s+/g, ' ')
		.trim();
}

/** List items of a page: { marker, text (raw, continuation lines joined), line }. */
function listItems(text) {
	const items = [];
	let current = null;
	proseLines(text, { keepInlineCode: true }).forEach((line, index) => {
		const start = /^\s{0,3}(\d+\.|[-*])\s+(.*)$/.exec(line);
		if (start) {
			current = { marker: start[1], text: start[2], line: index + 1 };
			items.push(current);
		} else if (current && /^\s+\S/.test(line)) current.text += ` ${line.trim()}`;
		else current = null;
	});
	return items;
}

/**
 * The statements of the promises page: { id, number (promises), label (rules), text (plain), line }.
 * A promise is an item of the numbered list `N. <a id="promise-N"></a>…`; a rule an item
 * `- <a id="rule-…"></a>**Label.** …`.
 */
function statementsOf(text) {
	const statements = [];
	for (const item of listItems(text)) {
		const anchored = /^<a id="((promise)-(\d+)|rule-[\w-]+)"><\/a>(.*)$/.exec(item.text);
		if (!anchored) continue;
		let body = anchored[4];
		let label;
		const labelled = /^\*\*([^*]+)\*\*\s*(.*)$/.exec(body);
		if (!anchored[2] && labelled) [, label, body] = labelled;
		statements.push({
			id: anchored[1],
			number: anchored[2] ? Number(anchored[3]) : undefined,
			listNumber: /^\d+\.$/.test(item.marker) ? Number.parseInt(item.marker, 10) : undefined,
			label,
			text: plainText(body),
			line: item.line,
		});
	}
	return statements;
}

/** One sentence: it ends with a full stop, and none ends before it outside brackets (a semicolon joins). */
function isOneSentence(text) {
	let outside = '';
	let depth = 0;
	for (const char of text) {
		if (char === '(') depth += 1;
		else if (char === ')') depth = Math.max(0, depth - 1);
		else if (depth === 0) outside += char;
	}
	const inner = outside.replace(/\b(e\.g|i\.e|etc)\./g, '$1');
	return /\.$/.test(text) && !/[.!?]\s+\S/.test(inner.replace(/\.$/, ''));
}

const wordsOf = (text) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
function triplesOf(text) {
	const words = wordsOf(text);
	const triples = new Set();
	for (let i = 0; i + 2 < words.length; i += 1) triples.add(words.slice(i, i + 3).join(' '));
	return triples;
}

/** The sentences of a page's prose (tables and list items included), with the line each starts on. */
function sentencesOf(text) {
	const sentences = [];
	const lines = proseLines(text, { keepInlineCode: true });
	let block = [];
	const flush = () => {
		if (!block.length) return;
		const joined = block.map(({ line }) => line.trim()).join(' ');
		for (const part of joined.split(/(?<=[.!?:;|])\s+(?=[A-Z*_`[|(])|\s+\|\s+/)) {
			const plain = plainText(part);
			if (plain) sentences.push({ text: plain, line: block[0].at });
		}
		block = [];
	};
	lines.forEach((line, index) => {
		// Each list item and table row starts a block of its own, as a blank line does.
		if (!line.trim() || /^\s{0,3}(\d+\.|[-*]|\|)\s/.test(line) || /^\s{0,3}#/.test(line)) flush();
		if (line.trim()) block.push({ line, at: index + 1 });
	});
	flush();
	return sentences;
}

/** The "may be sent again" condition as the code builds it, or undefined without that source. */
function sendAgainCondition(root) {
	const file = path.join(root, SEND_AGAIN_SOURCE);
	if (!fs.existsSync(file)) return undefined;
	const source = fs.readFileSync(file, 'utf8');
	const template = /function sendAgainCondition\(wait: string\): string \{\s*return `([^`]*)`/.exec(source)?.[1];
	const wait = /SEND_AGAIN_WAIT = '([^']*)'/.exec(source)?.[1];
	if (template === undefined || wait === undefined) return { missing: true };
	return { text: template.replace('${wait}', wait), wait };
}

/** The statements a text restates without quoting them: [{ statement, share (%) }]. */
function restated(text, statements) {
	const triples = triplesOf(text);
	const found = [];
	for (const statement of statements) {
		// A quote: the statement within the text, or the text a part of the statement, word for word.
		if (text.includes(statement.text) || statement.text.includes(text.trim())) continue;
		const theirs = triplesOf(statement.text);
		const shorter = Math.min(triples.size, theirs.size);
		if (shorter < MIN_TRIPLES) continue;
		let shared = 0;
		for (const triple of triples) if (theirs.has(triple)) shared += 1;
		if (shared / shorter >= RESTATED_SHARE)
			found.push({ statement, share: Math.round((100 * shared) / shorter) });
	}
	return found;
}

const linkText = (statement) =>
	statement.number ? `promise ${statement.number}` : (statement.label?.replace(/\.$/, '') ?? statement.id);

/**
 * The texts of the nodes and the credential a user reads: the string literals of nodes/ and
 * credentials/ (a template's `${…}` read as a space), { file, line, text }.
 */
function sourceTexts(root) {
	const texts = [];
	for (const file of [...filesEndingWith(root, 'nodes', '.ts'), ...filesEndingWith(root, 'credentials', '.ts')]) {
		const source = fs.readFileSync(path.join(root, file), 'utf8');
		for (const match of source.matchAll(/'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`/g)) {
			// The send-again condition's template is read with its wait, as the code builds it.
			const wait = file === SEND_AGAIN_SOURCE ? sendAgainCondition(root)?.wait : undefined;
			const text = (match[1] ?? match[2] ?? match[3])
				.replace('${wait}', wait ?? ' ')
				.replace(/\$\{[^}]*\}/g, ' ')
				.replace(/\\(.)/g, '$1');
			if (wordsOf(text).length < MIN_TRIPLES + 2) continue;
			texts.push({ file, line: source.slice(0, match.index).split('\n').length, text });
		}
	}
	return texts;
}

function promiseProblems(root, pages) {
	const file = path.join(root, PROMISES_PAGE);
	if (!fs.existsSync(file)) return { problems: [`${PROMISES_PAGE} is missing`], promises: 0, rules: 0 };
	const text = fs.readFileSync(file, 'utf8');
	const problems = [];
	const statements = statementsOf(text);
	const promises = statements.filter((statement) => statement.number !== undefined);
	const rules = statements.filter((statement) => statement.number === undefined);
	if (!/^## Promises\s*$/m.test(text)) problems.push(`${PROMISES_PAGE} has no "## Promises" heading`);
	if (!promises.length) problems.push(`${PROMISES_PAGE} states no promise (N. <a id="promise-N"></a>…)`);
	if (promises.length > MAX_PROMISES)
		problems.push(`${PROMISES_PAGE} states ${promises.length} promises (at most ${MAX_PROMISES})`);
	promises.forEach((promise, index) => {
		if (promise.number !== index + 1 || promise.listNumber !== promise.number)
			problems.push(
				`${PROMISES_PAGE}:${promise.line}: promise-${promise.number} is item ${promise.listNumber ?? '-'} of the list, expected ${index + 1} in both`,
			);
	});
	for (const statement of statements) {
		if (!isOneSentence(statement.text))
			problems.push(`${PROMISES_PAGE}:${statement.line}: ${statement.id} is not one sentence`);
	}
	// The code's condition for sending a row in doubt again is the rule's, word for word.
	const condition = sendAgainCondition(root);
	const sendAgain = rules.find((rule) => rule.id === 'rule-send-again');
	if (condition?.missing) problems.push(`${SEND_AGAIN_SOURCE}: sendAgainCondition or SEND_AGAIN_WAIT not found`);
	else if (condition && !sendAgain) problems.push(`${PROMISES_PAGE} has no rule-send-again`);
	else if (condition && !sendAgain.text.includes(condition.text))
		problems.push(
			`${PROMISES_PAGE}:${sendAgain.line}: rule-send-again does not say what ${SEND_AGAIN_SOURCE} builds: "${condition.text}"`,
		);
	const own = new Set(statements.map((statement) => statement.line));
	const numbers = new Set(promises.map((promise) => promise.number));
	for (const page of pages) {
		const pageText = fs.readFileSync(path.join(root, page), 'utf8');
		// A link to promise N says "N" or "promise N".
		proseLines(pageText, { keepInlineCode: true }).forEach((line, index) => {
			for (const match of line.matchAll(/\[([^\]]*)\]\(([^)\s]*#promise-(\d+))\)/g)) {
				const [, label, target, number] = match;
				if (!new RegExp(`^(promise\\s+)?${number}$`, 'i').test(label.trim()))
					problems.push(`${page}:${index + 1}: the link "${label}" goes to ${target}: say "promise ${number}"`);
				if (!numbers.has(Number(number)) && (page === PROMISES_PAGE || target.includes(PROMISES_PAGE.slice(5))))
					problems.push(`${page}:${index + 1}: ${target}: there is no promise ${number}`);
			}
		});
		// A sentence close to a statement quotes it word for word, or is a restatement.
		for (const sentence of sentencesOf(pageText)) {
			if (page === PROMISES_PAGE && own.has(sentence.line)) continue;
			for (const { statement, share } of restated(sentence.text, statements))
				problems.push(
					`${page}:${sentence.line}: restates ${statement.id} in other words (${share}% of its word triples): link it, e.g. [${linkText(statement)}](${page.startsWith('docs/') ? '' : 'docs/'}${PROMISES_PAGE.slice(5)}#${statement.id}), or quote it word for word`,
				);
		}
	}
	// The node's texts (field descriptions, errors) say the docs' words too, or point to them.
	for (const { file, line, text: literal } of sourceTexts(root)) {
		for (const { statement, share } of restated(literal, statements))
			problems.push(
				`${file}:${line}: a text restates ${statement.id} in other words (${share}% of its word triples): quote it word for word or name ${PROMISES_PAGE}#${statement.id}`,
			);
	}
	return { problems, promises: promises.length, rules: rules.length };
}

/** Every check: [{ name, problems }]. */
function checkDocs(root) {
	const results = [];
	const anchorCache = new Map();
	const pages = pagesOf(root);
	if (!pages.includes('README.md'))
		return [{ name: 'README.md exists', problems: ['README.md is missing'] }];
	for (const page of pages) {
		const { problems, counts } = linkProblems(root, page, anchorCache);
		results.push({
			name: `${page}: ${counts.links} relative links, ${counts.images} images, ${counts.anchors} anchors resolve`,
			problems,
		});
	}
	results.push({
		name: `the README's developer commands are the ones .ci/run and package.json run (${COMMANDS.join(', ')})`,
		problems: commandProblems(root),
	});
	const productDocs = productDocsProblems(root, anchorCache);
	results.push({
		name: `the nodes' and the credential's Docs links: ${productDocs.count} URLs, each to a heading of this repository's pages`,
		problems: productDocs.problems,
	});
	const figurePages = [...pages, 'CHANGELOG.md'].filter((page) => fs.existsSync(path.join(root, page)));
	const figures = figurePages.map((page) => figureProblems(root, page));
	results.push({
		name: `measured figures in ${figurePages.join(', ')}: ${figures.reduce((sum, f) => sum + f.count, 0)}, each with its source (a bench/results/ file or a test) in its paragraph`,
		problems: figures.flatMap((f) => f.problems),
	});
	const promises = promiseProblems(root, pages);
	results.push({
		name: `${PROMISES_PAGE}: ${promises.promises} promises (at most ${MAX_PROMISES}) and ${promises.rules} rules, each one sentence, numbered as its anchor; every link to a promise names its number, no sentence of ${pages.length} pages nor text of the nodes restates one in other words, and the send-again rule is the code's`,
		problems: promises.problems,
	});
	const images = imageProblems(root, pages);
	results.push({
		name: `docs/images: ${images.count} PNGs, each under 200 KB and shown by a page`,
		problems: images.problems,
	});
	return results;
}

function report(results) {
	let failed = 0;
	for (const { name, problems } of results) {
		if (problems.length) failed += 1;
		console.log(`${problems.length ? 'FAIL' : 'ok'} - ${name}`);
		for (const problem of problems) console.log(`  ${problem}`);
	}
	console.log(`${results.length - failed} passed, ${failed} failed`);
	return failed === 0;
}

// ---- self-test: the checker against fixtures in a temp folder ------------------------------------

const PNG = Buffer.from(
	'89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082',
	'hex',
);

const REPOSITORY = 'https://github.com/example/package';

function codex(...urls) {
	return JSON.stringify({ resources: { primaryDocumentation: urls.map((url) => ({ url })) } });
}

/** The self-test's README: what the package does and how to install it first, the developers' commands after. */
const README = [
	'# Package',
	'',
	'![Canvas](docs/images/canvas.png)',
	'',
	'## Install & set up',
	'```bash',
	'npm ci && npm run build && npm pack',
	'```',
	'See [set-up](#install--set-up), [the trigger](docs/development.md#the-trigger-node), [again](#notes-1).',
	'',
	'## Notes',
	'## Notes',
	'```',
	'[not a link](missing-in-code.md)',
	'```',
	'Inline `[code](missing.md)` is not a link.',
	'',
	'## Development',
	'',
	'```bash',
	'npm run demo              # a demo',
	'npm ci && npm test        # the tests',
	'```',
	'Development: [docs/development.md](docs/development.md).',
];

/** The self-test's promises page: two promises and a rule, the rule the code's words. */
const PROMISES = [
	'# Duplicate protection',
	'',
	'## Promises',
	'',
	'1. <a id="promise-1"></a>Under Skip Rows Sent Before, a row the service accepted is not sent again',
	'   while it is among the node\'s newest History Size rows.',
	'2. <a id="promise-2"></a>No row is output as sent unless the service accepted it, or a person recorded',
	'   it with Record Rows as Sent.',
	'',
	'- <a id="rule-send-again"></a>**When a row in doubt may be sent again.** A row in doubt may be sent',
	'  again only once no execution that sent it is still running and a minute has passed.',
	'',
	'Details, linking [promise 1](#promise-1) and [2](#promise-2).',
];
const SEND_AGAIN_CODE = [
	'export function sendAgainCondition(wait: string): string {',
	'\treturn `once no execution that sent it is still running and ${wait} has passed`;',
	'}',
	"export const SEND_AGAIN_WAIT = 'a minute';",
].join('\n');

function fixture(files) {
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-check-docs-'));
	const base = {
		'package.json': JSON.stringify({
			homepage: `${REPOSITORY}#readme`,
			scripts: { demo: 'bash scripts/demo.sh', test: 'bash test/run-all.sh' },
		}),
		'nodes/Example/Example.node.json': codex(
			`${REPOSITORY}#notes`,
			`${REPOSITORY}#install--set-up`,
		),
		'credentials/ExampleApi.credentials.ts': `export class ExampleApi {\n\tdocumentationUrl =\n\t\t'${REPOSITORY}/blob/main/docs/development.md#the-trigger-node';\n}\n`,
		'.ci/run': '#!/usr/bin/env bash\nnpm ci && npm test\n',
		'README.md': README.join('\n'),
		'docs/development.md':
			'# Development\n\n## The `Trigger` node\n\nBack to the [README](../README.md#notes).\n',
		'docs/images/canvas.png': PNG,
		[PROMISES_PAGE]: PROMISES.join('\n'),
		[SEND_AGAIN_SOURCE]: SEND_AGAIN_CODE,
	};
	for (const [name, content] of Object.entries({ ...base, ...files })) {
		if (content === null) continue;
		fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
		fs.writeFileSync(path.join(root, name), content);
	}
	return root;
}

function selfTest() {
	const cases = [
		{
			name: 'a clean fixture passes (links, images, anchors with GitHub slugs, repeated headings, code ignored)',
			files: {},
			expect: [],
		},
		{
			name: 'a broken relative link fails',
			files: { 'docs/extra.md': '# Extra\n\n[gone](./missing.md)\n' },
			expect: [/docs\/extra\.md:3: link \.\/missing\.md: no such file/],
		},
		{
			name: 'a missing image fails (and the unused picture is reported)',
			files: { 'docs/images/canvas.png': null, 'docs/images/other.png': PNG },
			expect: [/image docs\/images\/canvas\.png: no such file/, /other\.png is shown by no page/],
		},
		{
			name: 'an anchor that no heading makes fails, in the page and in another page',
			files: {
				'docs/development.md':
					'# Development\n\n[x](#no-such-heading) [y](../README.md#install-and-set-up)\n',
			},
			expect: [
				/#no-such-heading/,
				/#install-and-set-up/,
				/docs\/development\.md#the-trigger-node: no heading/,
			],
		},
		{
			name: 'a README command that is not what .ci/run and package.json run fails',
			files: {
				'.ci/run': 'npm install && npm test\n',
				'package.json': JSON.stringify({ scripts: { test: 'x' } }),
			},
			expect: [/\.ci\/run does not run "npm ci && npm test"/, /no "demo" script/],
		},
		{
			name: "a README whose developer commands' block shows another command, or no link to docs/development.md beside it, fails",
			files: {
				'README.md': README.map((line) =>
					line.startsWith('Development:')
						? 'npm run lint'
						: line.startsWith('npm ci && npm test')
							? 'npm ci && npm test && npm run lint'
							: line,
				).join('\n'),
			},
			expect: [
				/the README's code block of the developer commands shows \["npm run demo","npm ci && npm test && npm run lint"\]/,
				/does not link docs\/development\.md in the developer commands' section/,
			],
			only: true,
		},
		{
			name: 'a Docs link of a node or the credential to a missing anchor or another site fails',
			files: {
				'nodes/Example/Example.node.json': codex(
					`${REPOSITORY}#credentials`,
					'https://example.com/docs',
				),
				'credentials/ExampleApi.credentials.ts': `documentationUrl = '${REPOSITORY}/blob/main/docs/development.md#trigger';`,
			},
			expect: [
				/Example\.node\.json: .*#credentials: no heading with the anchor #credentials in README\.md/,
				/Example\.node\.json: https:\/\/example\.com\/docs is not a page of https:\/\/github\.com\/example\/package/,
				/ExampleApi\.credentials\.ts: .*#trigger: no heading with the anchor #trigger in docs\/development\.md/,
			],
		},
		{
			name: 'a measured figure with no source fails; with its results file, as a default or in code it passes',
			files: {
				'docs/extra.md': [
					'# Extra',
					'',
					'Download of 300 MiB: 1.33× the time of the other.',
					'',
					'Measured: 0.2–0.4× ([bench/results/latest.md](../bench/results/latest.md)).',
					'',
					'The timeout defaults to 60 s; n8n 2.41.1 on Node 24.',
					'',
					'`took 9 ms`',
				].join('\n'),
				'bench/results/latest.md': '# run\n',
			},
			expect: [/docs\/extra\.md:3: "1\.33×" has no source/],
			only: true,
		},
		{
			name: 'a promise restated in other words elsewhere fails; quoted word for word it passes',
			files: {
				'docs/extra.md': [
					'# Extra',
					'',
					'Under Skip Rows Sent Before, a row the service accepted is never sent again by any execution.',
					'',
					'As promised: Under Skip Rows Sent Before, a row the service accepted is not sent again while it is among the node\'s newest History Size rows.',
				].join('\n'),
			},
			expect: [/docs\/extra\.md:3: restates promise-1 in other words .*\[promise 1\]\(duplicate-protection\.md#promise-1\)/],
			only: true,
		},
		{
			name: 'a link to a promise that names another number, or a promise that does not exist, fails',
			files: {
				'docs/extra.md': '# Extra\n\nSee [promise 2](duplicate-protection.md#promise-1) and [promise 3](duplicate-protection.md#promise-3).\n',
			},
			expect: [
				/docs\/extra\.md:3: the link "promise 2" goes to duplicate-protection\.md#promise-1: say "promise 1"/,
				/docs\/extra\.md:3: duplicate-protection\.md#promise-3: there is no promise 3/,
				/docs\/extra\.md:3: duplicate-protection\.md#promise-3: no heading with the anchor #promise-3/,
			],
			only: true,
		},
		{
			name: 'promises numbered apart from their anchors, two sentences in one, or more than ten fail',
			files: {
				[PROMISES_PAGE]: [
					...PROMISES.slice(0, 4),
					'1. <a id="promise-2"></a>A row is sent. It is recorded.',
					...Array.from({ length: 10 }, (_, i) => `${i + 2}. <a id="promise-${i + 3}"></a>Promise ${i + 3} holds.`),
				].join('\n'),
			},
			expect: [
				/promise-2 is item 1 of the list, expected 1 in both/,
				/promise-2 is not one sentence/,
				/states 11 promises \(at most 10\)/,
			],
		},
		{
			name: "a send-again rule that is not what the code's sendAgainCondition builds fails",
			files: { [SEND_AGAIN_SOURCE]: SEND_AGAIN_CODE.replace("'a minute'", "'an hour'") },
			expect: [
				/rule-send-again does not say what .*fields\.ts builds: "once no execution that sent it is still running and an hour has passed"/,
				/fields\.ts:2: a text restates rule-send-again in other words/,
			],
			only: true,
		},
		{
			name: "a node's text (a field description, an error) that restates a promise in other words fails; one that quotes it passes",
			files: {
				'nodes/Example/fields.ts': [
					"export const skip = 'Under Skip Rows Sent Before, a row the service accepted is never sent again by anyone.';",
					"export const quote = 'As promised: Under Skip Rows Sent Before, a row the service accepted is not sent again while it is among the node\\'s newest History Size rows.';",
				].join('\n'),
			},
			expect: [/nodes\/Example\/fields\.ts:1: a text restates promise-1 in other words/],
			only: true,
		},
		{
			name: 'a picture over 200 KB fails',
			files: { 'docs/images/canvas.png': Buffer.concat([PNG, Buffer.alloc(IMAGE_LIMIT)]) },
			expect: [/canvas\.png has \d+ KB/],
		},
	];
	let passed = 0;
	let failed = 0;
	for (const { name, files, expect, only } of cases) {
		const root = fixture(files);
		try {
			const problems = checkDocs(root).flatMap((result) => result.problems);
			const missing = expect.filter(
				(pattern) => !problems.some((problem) => pattern.test(problem)),
			);
			const ok =
				expect.length === 0
					? problems.length === 0
					: missing.length === 0 && (!only || problems.length === expect.length);
			if (ok) passed += 1;
			else failed += 1;
			console.log(`${ok ? 'ok' : 'FAIL'} - self-test: ${name}`);
			if (!ok) {
				for (const problem of problems) console.log(`  reported: ${problem}`);
				for (const pattern of missing) console.log(`  not reported: ${pattern}`);
			}
		} finally {
			fs.rmSync(root, { recursive: true, force: true });
		}
	}
	console.log(`${passed} passed, ${failed} failed`);
	return failed === 0;
}

module.exports = { checkDocs, slug, anchorsOf, linksOf };

if (require.main === module) {
	const argument = process.argv[2];
	const ok =
		argument === '--self-test'
			? selfTest()
			: report(checkDocs(path.resolve(argument || path.join(__dirname, '..'))));
	process.exitCode = ok ? 0 : 1;
}
