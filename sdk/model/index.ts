/** The service's resources and rules, shared by the server, the client and the providers. */
export * from "./rules";
export * from "./jsonapi";
export * from "./project";
export * from "./variable";
export * from "./workspace";
export * from "./noCode";
export * from "./registryModule";
