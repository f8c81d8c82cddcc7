import { describeGuestCardContract } from './guest-cards-contract.ts';
import { postgresBackend, sqliteBackend } from './store-backends.ts';

describeGuestCardContract(sqliteBackend());
describeGuestCardContract(postgresBackend());
