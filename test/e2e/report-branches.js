'use strict';

/**
 * The nodes of the examples' per-check report branch (the provider's newer page: no transaction report,
 * a report per check). Against the sandbox's contract mode the transaction has a report, so they do not
 * run: the suites that run "candidates to reports" there leave them out of the nodes they expect.
 */
const PER_CHECK_REPORT_BRANCH = ['Each Check', 'Get Check Report', 'Check Report Ready?', 'Download Check Report'];

module.exports = { PER_CHECK_REPORT_BRANCH };
