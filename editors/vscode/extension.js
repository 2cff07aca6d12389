// Starts `ludus lsp` (or the command in the `ludus.command` setting) for .ludus files.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("ludus").get("command", ["ludus", "lsp"]);
  const server = { command, args };
  client = new LanguageClient(
    "ludus",
    "ludus language server",
    { run: server, debug: server },
    { documentSelector: [{ scheme: "file", language: "ludus" }] }
  );
  context.subscriptions.push({ dispose: () => client && client.stop() });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
