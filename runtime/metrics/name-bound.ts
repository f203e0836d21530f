/**
 * How many distinct names the reports keep apart, for names that appear as a run goes (a
 * TypeScript scenario's request names, check names of scenarios and configurations alike): each
 * keeps figures in every thread and a line in every report, so a scenario that names requests or
 * checks after ids cannot grow them without bound. Names past the bound are counted together.
 */

/** Distinct names kept apart (per thread). */
export const MAX_NAMES = 100;
/** Where what is named beyond MAX_NAMES names is counted. */
export const OTHER_NAME = '(other)';

/**
 * Distinct outcomes (status and error kind) kept apart per endpoint, each with its own latency
 * histogram (189 KB): a target answering with hundreds of statuses cannot grow memory without
 * bound. Later ones share one outcome of status OTHER_OUTCOME (docs/configuration.md, Tags).
 */
export const MAX_OUTCOMES = 16;
/** The status of the outcome that holds an endpoint's outcomes past MAX_OUTCOMES. */
export const OTHER_OUTCOME = -1;
