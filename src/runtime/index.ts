// The shared runtime of the pane, the custom functions, the ribbon commands and the workbench. The module
// as a whole is what the pane gets (`import * as runtime from '../runtime'` satisfies PaneRuntime).
export * from './connection';
export * from './host';
export * from './paneRequests';
export * from './plans';
export * from './shared';
export { ConnectionNameTaken, connectionMissing, createRuntime, type ConnectionCommands, type ConnectionList, type DisconnectOptions, type GroupReview, type Identified, type RefreshAllOptions, type Runtime } from './runtime';
export { GROUPS_SETTING, withGroup, type Group } from './groups';
export { openWorkspace, type CompanyWorkspace, type ConnectionSettings, type OtherCompanyPlan, type RefreshAsk, type Workspace, type WorkspaceConnections, type WorkspaceEnv, type WorkspaceRuntime } from './workspace';
