import { gatewayContract } from './contract';
import { memoryHarness, officeHarness } from './harnesses';
import { MAC, WEB, WINDOWS } from './officeJs';

gatewayContract('MemoryGateway', (options) => memoryHarness(options));
for (const host of [WINDOWS, MAC, WEB]) {
  gatewayContract(`OfficeGateway through office-js on ${host.name}`, (options) => officeHarness({ date1904: options?.date1904 }, { host }));
}
