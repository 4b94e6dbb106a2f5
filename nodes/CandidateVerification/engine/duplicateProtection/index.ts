export * from './fields';
export { DuplicateProtection, OneOffRefused } from './protection';
export { PROTECTION_LOG_MESSAGE, ProtectionGate } from './gate';
