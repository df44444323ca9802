export { createChatModel, ModelError, type ChatModel, type ChatModelConfig, type StructuredRequest } from './chat-client.js';
