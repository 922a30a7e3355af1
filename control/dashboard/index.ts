// The controller's dashboard: its server and page, and who holds its port when it is taken. The door
// of control/dashboard/.
export { dashboardPortTaken, portHolder } from './port-holder.js';
export { startDashboard } from './server.js';
