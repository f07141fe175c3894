import { hostileContext, hostileRouteSuite } from './hostile-suite';

/** Hostile query and path parameters on every route: never a 500, and a refused write changes nothing. */
hostileContext('query and path parameters');
hostileRouteSuite('query-path');
