'use strict';

/**
 * The nodes of the examples' per-check report branch (the provider's newer page: no transaction report,
 * a report per check). Against the sandbox's contract mode the transaction has a report, so they do not
 * run: the suites that run "candidates to reports" there leave them out of the nodes they expect.
 */
const PER_CHECK_REPORT_BRANCH = ['Each Check', 'Get Check Report', 'Check Report Ready?', 'Download Check Report'];

/**
 * The nodes of "candidates to reports" only candidates an earlier run created go through (then on to
 * Submit): a first run creates every candidate, so they do not run in it.
 */
const EARLIER_RUN_BRANCH = ['Transaction ID Known?'];

/** The nodes a first run of "candidates to reports" against the contract mode leaves out. */
const NOT_IN_A_FIRST_CONTRACT_RUN = [...PER_CHECK_REPORT_BRANCH, ...EARLIER_RUN_BRANCH];

module.exports = { PER_CHECK_REPORT_BRANCH, EARLIER_RUN_BRANCH, NOT_IN_A_FIRST_CONTRACT_RUN };
