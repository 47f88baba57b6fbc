export const InternalTransferScreen = () => <section data-screen="InternalTransferScreen" />;
