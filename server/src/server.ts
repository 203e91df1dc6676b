/**
 * The language server entry point (`node dist/server.js --stdio`, or IPC from VS Code).
 * Only wiring lives here; features are modules under `lsp/` over the editor-agnostic engine.
 */
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from './lsp/session';

const connection = createConnection(ProposedFeatures.all);
startServer(connection);
