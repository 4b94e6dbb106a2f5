import type * as transport from '../../nodes/shared/transport';
import type { runActionNode } from '../harness/run-node';

/**
 * A second n8n process as test/harness/other-process.ts loads it (the node's code loaded again, its
 * memory apart, the same store), with its own copy of the transport, so that the simulated service
 * decides the outcome of its requests too.
 */
export function otherProcessWithTransport(): {
	runActionNode: typeof runActionNode;
	transport: typeof transport;
} {
	let loaded: ReturnType<typeof otherProcessWithTransport> | undefined;
	jest.isolateModules(() => {
		loaded = {
			// eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh copy of the modules, as another process has
			runActionNode: (require('../harness/run-node') as { runActionNode: typeof runActionNode })
				.runActionNode,
			// eslint-disable-next-line @typescript-eslint/no-require-imports -- the same registry's transport
			transport: require('../../nodes/shared/transport') as typeof transport,
		};
	});
	return loaded!;
}
