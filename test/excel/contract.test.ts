import { gatewayContract } from './contract';
import { memoryHarness, officeHarness } from './harnesses';

gatewayContract('OfficeGateway on the fake Excel', (options) => officeHarness({ date1904: options?.date1904 }));
gatewayContract('MemoryGateway', (options) => memoryHarness(options));
