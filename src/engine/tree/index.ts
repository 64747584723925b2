export { normalizeName, normalizePath, pathSegments } from './names';
export { buildTree, subtreeIds, type Tree, type TreeItem, type TreeNode } from './tree';
export { nodesAtPath, nodesNamed, runsAlong } from './lookup';
export { suggestions } from './suggest';
