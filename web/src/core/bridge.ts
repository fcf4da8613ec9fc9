/// The engine lives in web/src/engine/; widgets and the page keep importing it from here.
export * from '../engine/bridge';
