export * from './fields';
export { DuplicateProtection } from './protection';
export { PROTECTION_LOG_MESSAGE, ProtectionGate } from './gate';
