import type { runActionNode } from './run-node';

/** A second n8n process: the node's code loaded again (its memory apart), the same database. */
export function otherProcess(): typeof runActionNode {
	let other: typeof runActionNode | undefined;
	jest.isolateModules(() => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh copy of the modules, as another process has
		other = (require('./run-node') as { runActionNode: typeof runActionNode }).runActionNode;
	});
	return other!;
}
