/**
 * Entry point for cdk8s.yaml: `validations: [{ package: <abs path or ./path>/lib/frontends/plugin/index.js,
 * version: 0.1.0, class: LinkerdValidation, properties: {...} }]`. cdk8s-cli requires this file and looks the class
 * up by the `class` name among its exports.
 */
export { LinkerdValidation } from './linkerd-validation';
