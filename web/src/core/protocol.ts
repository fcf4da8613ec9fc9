/// The call descriptions live in web/src/engine/; widgets keep importing them from here.
export * from '../engine/protocol';
